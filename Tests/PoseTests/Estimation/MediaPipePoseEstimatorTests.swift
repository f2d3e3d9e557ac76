import ActionLabTestSupport
import Foundation
import Pose
import Testing

/// MediaPipe's pose landmarker on a real photo. These tests need what `scripts/setup` installs
/// (libmediapipe.so, the model bundle, messi5.jpg, ffmpeg); without it they fail with an error
/// that says to run it.
@Suite struct MediaPipePoseEstimatorTests {
    /// messi5.jpg from Debian's opencv-doc: one footballer, whole body in view, 548x342.
    static func messi() throws -> RGBImage {
        try StillImageDecoder.decode(try TestData.file("opencv/messi5.jpg"))
    }

    static func joint(_ name: String) -> Int { SkeletonLayout.vision18.joints.firstIndex(of: name) ?? -1 }

    /// Checks the anatomy the acceptance test asks for: head above hips, ankles below, all inside.
    static func expectUprightPerson(_ person: DetectedPerson, sourceLocation: SourceLocation = #_sourceLocation) {
        let keypoints = person.keypoints
        let nose = keypoints[joint("nose")]
        let hips = [keypoints[joint("leftHip")], keypoints[joint("rightHip")]]
        let ankles = [keypoints[joint("leftAnkle")], keypoints[joint("rightAnkle")]]
        for keypoint in [nose] + hips + ankles {
            #expect(keypoint.isDetected, "nose, hips and ankles are in view: \(keypoints)", sourceLocation: sourceLocation)
        }
        for hip in hips {
            #expect(nose.y > hip.y, "Vision's y grows upward: the nose is above the hips", sourceLocation: sourceLocation)
            for ankle in ankles {
                #expect(ankle.y < hip.y, "the ankles are below the hips", sourceLocation: sourceLocation)
            }
        }
        #expect(
            person.frameValues.allSatisfy { (0...1).contains($0) }, "every value inside [0, 1]: \(person.frameValues)",
            sourceLocation: sourceLocation)
    }

    @Test("Image mode finds one upright person in messi5.jpg, inside the frame")
    func imageMode() throws {
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: .image, numberOfPoses: 2))
        let people = try estimator.estimatePeople(in: try Self.messi(), at: 0)
        try #require(people.count == 1, "one person in messi5.jpg, found \(people.count)")
        Self.expectUprightPerson(people[0])

        let landmarks = try estimator.detectLandmarks(in: try Self.messi(), at: 0)
        #expect(landmarks.map(\.count) == [BlazePose.landmarkCount])
        let scores = landmarks.flatMap { $0 }.flatMap { [$0.visibility, $0.presence] }
        #expect(scores.allSatisfy { $0.map { (0...1).contains($0) } == true }, "MediaPipe reports probabilities")
    }

    @Test("Video mode tracks the same person across frames and agrees with image mode")
    func videoMode() throws {
        let image = try Self.messi()
        let still = try MediaPipePoseEstimator(options: .init(runningMode: .image)).estimateFrame(in: image, at: 0)
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: .video))
        for timestamp in [0, 1.0 / 30, 2.0 / 30] {
            let people = try estimator.estimatePeople(in: image, at: timestamp)
            try #require(people.count == 1)
            Self.expectUprightPerson(people[0])
            let frame = DetectedPerson.frameValues(ofMostProminentAmong: people)
            let coordinates = 0..<(2 * 18)  // x and y rows
            let largest = coordinates.map { abs(frame[$0] - still[$0]) }.max() ?? 0
            #expect(largest < 0.05, "at \(timestamp) s the keypoints moved by up to \(largest)")
        }
    }

    @Test("Video mode rejects a timestamp that does not increase")
    func timestampsMustIncrease() throws {
        let image = try Self.messi()
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: .video))
        _ = try estimator.estimatePeople(in: image, at: 0.5)
        #expect(throws: PoseEstimationError.timestampNotIncreasing(previousMilliseconds: 500, milliseconds: 500)) {
            try estimator.estimatePeople(in: image, at: 0.5)
        }
        #expect(throws: PoseEstimationError.timestampNotIncreasing(previousMilliseconds: 500, milliseconds: 400)) {
            try estimator.estimatePeople(in: image, at: 0.4)
        }
        #expect(throws: Never.self) { try estimator.estimatePeople(in: image, at: 0.501) }
    }

    @Test("A frame without a person gives all zeros")
    func nobody() throws {
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: .image))
        let gray = try RGBImage(width: 320, height: 240, pixels: Array(repeating: 128, count: 320 * 240 * 3))
        #expect(try estimator.estimatePeople(in: gray, at: 0).isEmpty)
        #expect(try estimator.estimateFrame(in: gray, at: 0) == Array(repeating: 0, count: 54))
    }

    @Test("A model file MediaPipe cannot read fails with MediaPipe's own message")
    func badModel() throws {
        let directory = try TemporaryDirectory()
        let model = try writeFixture("not a model bundle", named: "broken.task", in: directory.url)
        let error = #expect(throws: PoseEstimationError.self) {
            try MediaPipePoseEstimator(options: .init(modelPath: model.path))
        }
        guard case let .mediaPipe(function, status, message) = error else {
            // A missing library would land here: say how to get it.
            Issue.record("expected MediaPipe's error, got \(String(describing: error))")
            return
        }
        #expect(function == "MpPoseLandmarkerCreate")
        #expect(status.code != 0)
        #expect(!message.isEmpty && message != "no message")
    }

    @Test("Closing is idempotent and a closed estimator refuses frames")
    func close() throws {
        let estimator = try MediaPipePoseEstimator(options: .init(runningMode: .image))
        try estimator.close()
        try estimator.close()
        #expect(throws: PoseEstimationError.closed) { try estimator.estimatePeople(in: try Self.messi(), at: 0) }
    }
}
