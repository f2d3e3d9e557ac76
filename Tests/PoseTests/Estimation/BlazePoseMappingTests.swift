import Pose
import Testing

@Suite struct BlazePoseMappingTests {
    /// 33 landmarks at (0.5, 0.5), visibility and presence 0.9; `adjust` edits some.
    static func landmarks(_ adjust: (inout [BlazePoseLandmark]) -> Void = { _ in }) -> [BlazePoseLandmark] {
        var landmarks = Array(
            repeating: BlazePoseLandmark(x: 0.5, y: 0.5, visibility: 0.9, presence: 0.9), count: BlazePose.landmarkCount)
        adjust(&landmarks)
        return landmarks
    }

    static let vision18 = SkeletonLayout.vision18
    static func joint(_ name: String) -> Int { vision18.joints.firstIndex(of: name) ?? -1 }

    /// `left_shoulder` -> `leftShoulder`.
    static func camelCase(_ snakeCase: String) -> String {
        let words = snakeCase.split(separator: "_")
        return words.prefix(1).joined() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    @Test("Every vision18 joint but the neck comes from the BlazePose landmark of the same name")
    func sourcesMatchByName() {
        #expect(BlazePose.vision18Sources.count == Self.vision18.jointCount)
        for (joint, source) in zip(Self.vision18.joints, BlazePose.vision18Sources) {
            if joint == "neck" {
                #expect(source == nil)
            } else if let source {
                #expect(Self.camelCase(BlazePose.landmarkNames[source]) == joint)
            } else {
                Issue.record("\(joint) has no source landmark")
            }
        }
    }

    @Test("The indices the design names: nose 0, eyes 2 and 5, ears 7 and 8, shoulders 11 and 12, ankles 27 and 28")
    func documentedIndices() {
        let expected = [
            "nose": 0, "leftEye": 2, "rightEye": 5, "leftEar": 7, "rightEar": 8, "leftShoulder": 11,
            "rightShoulder": 12, "leftElbow": 13, "rightElbow": 14, "leftWrist": 15, "rightWrist": 16, "leftHip": 23,
            "rightHip": 24, "leftKnee": 25, "rightKnee": 26, "leftAnkle": 27, "rightAnkle": 28,
        ]
        for (joint, index) in expected {
            #expect(BlazePose.vision18Sources[Self.joint(joint)] == index, "\(joint)")
        }
    }

    @Test("x is kept and y is flipped to Vision's lower-left origin")
    func coordinates() {
        let person = BlazePose.vision18Person(from: Self.landmarks {
            $0[0] = BlazePoseLandmark(x: 0.25, y: 0.125, visibility: 0.9, presence: 0.9)  // nose near the top
            $0[27] = BlazePoseLandmark(x: 0.75, y: 1, visibility: 0.9, presence: 0.9)  // left ankle on the bottom edge
        })
        #expect(person.keypoints[Self.joint("nose")] == Keypoint(x: 0.25, y: 0.875, confidence: 0.9))
        #expect(person.keypoints[Self.joint("leftAnkle")] == Keypoint(x: 0.75, y: 0, confidence: 0.9))
    }

    @Test(
        "Confidence is the smaller of visibility and presence, clamped to [0, 1]",
        arguments: [
            (Float?(0.8), Float?(0.3), Float(0.3)), (0.2, 0.95, 0.2), (nil, 0.6, 0.6), (0.7, nil, 0.7), (nil, nil, 1),
            (1.5, 1.2, 1), (-0.1, 0.5, 0),
        ])
    func confidence(visibility: Float?, presence: Float?, expected: Float) {
        let landmark = BlazePoseLandmark(x: 0.5, y: 0.5, visibility: visibility, presence: presence)
        #expect(BlazePose.confidence(of: landmark) == expected)
    }

    @Test(
        "A landmark outside the frame or not finite becomes (0, 0, 0)",
        arguments: [
            BlazePoseLandmark(x: -0.01, y: 0.5, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: 1.01, y: 0.5, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: 0.5, y: -0.2, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: 0.5, y: 1.3, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: .nan, y: 0.5, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: 0.5, y: .infinity, visibility: 0.9, presence: 0.9),
            BlazePoseLandmark(x: 0.5, y: 0.5, visibility: .nan, presence: 0.9),
        ])
    func outsideFrame(landmark: BlazePoseLandmark) {
        let person = BlazePose.vision18Person(from: Self.landmarks { $0[16] = landmark })  // right wrist
        #expect(person.keypoints[Self.joint("rightWrist")] == .undetected)
    }

    @Test("The neck is the shoulders' midpoint with the weaker shoulder's confidence")
    func neck() {
        let person = BlazePose.vision18Person(from: Self.landmarks {
            $0[11] = BlazePoseLandmark(x: 0.6, y: 0.2, visibility: 0.9, presence: 0.8)  // left shoulder
            $0[12] = BlazePoseLandmark(x: 0.4, y: 0.4, visibility: 0.7, presence: 0.95)  // right shoulder
        })
        let neck = person.keypoints[Self.joint("neck")]
        #expect(abs(neck.x - 0.5) < 1e-6)
        #expect(abs(neck.y - 0.7) < 1e-6)  // 1 - (0.2 + 0.4) / 2
        #expect(neck.confidence == 0.7)
    }

    @Test("The neck is undetected when either shoulder is")
    func neckNeedsBothShoulders() {
        let person = BlazePose.vision18Person(from: Self.landmarks {
            $0[12] = BlazePoseLandmark(x: -0.1, y: 0.4, visibility: 0.9, presence: 0.9)
        })
        #expect(person.keypoints[Self.joint("rightShoulder")] == .undetected)
        #expect(person.keypoints[Self.joint("neck")] == .undetected)
    }

    @Test("Landmarks missing from a short array give undetected joints")
    func shortInput() {
        let person = BlazePose.vision18Person(from: Array(Self.landmarks().prefix(12)))  // up to left shoulder
        #expect(person.keypoints[Self.joint("leftShoulder")].isDetected)
        #expect(person.keypoints[Self.joint("rightShoulder")] == .undetected)
        #expect(person.keypoints[Self.joint("rightAnkle")] == .undetected)
        #expect(BlazePose.vision18Person(from: []) == .undetected)
    }

    @Test("Whatever the landmarks, every value lands in [0, 1]")
    func alwaysInUnitInterval() {
        let coordinates: [Float] = [-0.5, -1e-4, 0, 0.3, 1, 1 + 1e-4, 1.5, .nan, -.infinity]
        let scores: [Float?] = [nil, -0.2, 0, 0.6, 1, 1.2, .nan]
        for x in coordinates {
            for y in coordinates {
                for score in scores {
                    let landmark = BlazePoseLandmark(x: x, y: y, visibility: score, presence: 0.8)
                    let values = BlazePose.vision18Person(from: Self.landmarks { $0 = $0.map { _ in landmark } }).frameValues
                    #expect(values.count == 3 * 18)
                    #expect(values.allSatisfy { (0...1).contains($0) }, "x \(x), y \(y), visibility \(String(describing: score))")
                }
            }
        }
    }
}
