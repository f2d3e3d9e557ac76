import Augmentation
import Foundation
import Manifest
import Pose
import Testing

/// The geometric steps on a 3-D skeleton (kinect-v1: x, y, z in metres, y up), about the
/// skeleton's centre, on a window with an untracked joint and padded frames.
@Suite struct Skeleton3DAugmentationTests {
    static let layout = SkeletonLayout.kinectV1
    static let frames = 8
    static let joints = 20
    /// Frames 6 and 7 are padding (all joints zero).
    static let paddedFrames = 6..<8

    /// A `[8, 3, 20]` window in metres: x in about ±0.5, y in about ±0.8, z about 2.5 (in front
    /// of the camera); joint 7 (leftHand) is untracked in frame 2; frames 6 and 7 are padding.
    static func window() -> [Float] {
        var values = [Float](repeating: 0, count: frames * 3 * joints)
        for frame in 0..<6 {
            for joint in 0..<joints where !(joint == 7 && frame == 2) {
                values[(frame * 3 + 0) * joints + joint] = -0.5 + 0.05 * Float(joint) + 0.01 * Float(frame)
                values[(frame * 3 + 1) * joints + joint] = 0.8 - 0.08 * Float(joint) + 0.003 * Float(frame * joint % 5)
                values[(frame * 3 + 2) * joints + joint] = 2.5 + 0.02 * Float(joint % 7) - 0.01 * Float(frame)
            }
        }
        return values
    }

    static func value(_ window: [Float], _ frame: Int, _ channel: Int, _ joint: Int) -> Float {
        window[(frame * 3 + channel) * joints + joint]
    }

    static func isDetected(_ window: [Float], _ frame: Int, _ joint: Int) -> Bool {
        (0..<3).contains { value(window, frame, $0, joint) != 0 }
    }

    /// The mean x, y, z of the detected joints of all frames.
    static func centre(_ window: [Float]) -> [Double] {
        var sum = [0.0, 0.0, 0.0]
        var count = 0
        for frame in 0..<frames {
            for joint in 0..<joints where isDetected(window, frame, joint) {
                for channel in 0..<3 { sum[channel] += Double(value(window, frame, channel, joint)) }
                count += 1
            }
        }
        return sum.map { $0 / Double(count) }
    }

    static func pipeline(_ steps: [AugmentationStep]) throws -> AugmentationPipeline {
        try AugmentationPipeline(name: "test", steps: steps, layout: layout)
    }

    static func augmented(_ steps: [AugmentationStep], seed: Int = 5, epoch: Int = 1, index: Int = 0) throws -> [Float] {
        var window = window()
        try pipeline(steps).apply(to: &window, seed: seed, epoch: epoch, index: index)
        return window
    }

    /// Whether `a` and `b` agree to 1e-5 relative (Float32 arithmetic about a centre ~2.5 m away).
    static func close(_ a: Double, _ b: Double, tolerance: Double = 1e-5) -> Bool {
        abs(a - b) <= tolerance * max(1, abs(a), abs(b))
    }

    @Test(arguments: [5.0, 30.0, 180.0])
    func rotationAboutTheVerticalAxisKeepsHeightAndDistanceToTheAxis(degrees: Double) throws {
        let original = Self.window()
        let rotated = try Self.augmented([.rotation(degrees: degrees)], index: 3)
        #expect(rotated != original)
        let centre = Self.centre(original)
        var angles: [Double] = []
        for frame in 0..<Self.frames {
            for joint in 0..<Self.joints where Self.isDetected(original, frame, joint) {
                func offsets(_ w: [Float]) -> (x: Double, y: Double, z: Double) {
                    (Double(Self.value(w, frame, 0, joint)) - centre[0], Double(Self.value(w, frame, 1, joint)) - centre[1],
                     Double(Self.value(w, frame, 2, joint)) - centre[2])
                }
                let (before, after) = (offsets(original), offsets(rotated))
                #expect(Self.close(after.y, before.y), "height of joint \(joint) in frame \(frame) changed")
                let radius = (before.x * before.x + before.z * before.z).squareRoot()
                #expect(Self.close((after.x * after.x + after.z * after.z).squareRoot(), radius))
                if radius > 0.05 {
                    // x' = cos·x + sin·z, z' = −sin·x + cos·z turns (z, x) by the angle.
                    var turn = atan2(after.x, after.z) - atan2(before.x, before.z)
                    while turn > Double.pi { turn -= 2 * Double.pi }
                    while turn < -Double.pi { turn += 2 * Double.pi }
                    angles.append(turn)
                }
            }
        }
        // One angle for every joint and frame, within ±degrees.
        let first = try #require(angles.first)
        #expect(angles.allSatisfy { abs($0 - first) < 1e-3 || abs(abs($0 - first) - 2 * Double.pi) < 1e-3 })
        #expect(abs(first) <= degrees * Double.pi / 180 + 1e-6)
        #expect(abs(first) > 1e-4)
    }

    @Test func flipNegatesXAboutTheCentreAndSwapsLeftAndRight() throws {
        let original = Self.window()
        let flipped = try Self.augmented([.horizontalFlip(probability: 1)])
        let centreX = Float(Self.centre(original)[0])
        var partner = Array(0..<Self.joints)
        for pair in Self.layout.mirrorPairs {
            partner[pair.first] = pair.second
            partner[pair.second] = pair.first
        }
        #expect(Self.layout.joints[partner[7]] == "rightHand" && Self.layout.joints[partner[12]] == "rightHip")
        for frame in 0..<Self.frames {
            for joint in 0..<Self.joints {
                let source = partner[joint]
                guard Self.isDetected(original, frame, source) else {
                    #expect(!Self.isDetected(flipped, frame, joint), "joint \(joint) frame \(frame) should be undetected")
                    continue
                }
                let expectedX = 2 * centreX - Self.value(original, frame, 0, source)
                #expect(abs(Self.value(flipped, frame, 0, joint) - expectedX) <= 1e-5)
                #expect(abs(Self.value(flipped, frame, 1, joint) - Self.value(original, frame, 1, source)) <= 1e-5)
                #expect(abs(Self.value(flipped, frame, 2, joint) - Self.value(original, frame, 2, source)) <= 1e-5)
            }
        }
        // The untracked left hand of frame 2 is now the untracked right hand.
        #expect(!Self.isDetected(flipped, 2, 11) && Self.isDetected(flipped, 2, 7))
        // Flipping twice gives the window back.
        let twice = try Self.augmented([.horizontalFlip(probability: 1), .horizontalFlip(probability: 1)])
        #expect(zip(twice, original).allSatisfy { abs($0 - $1) <= 1e-5 })
    }

    @Test func translationShiftsEveryJointByOneVectorInAllThreeCoordinates() throws {
        let original = Self.window()
        let maximum = 0.1
        let moved = try Self.augmented([.translation(maximum: maximum)], index: 2)
        let shift = (0..<3).map { Double(Self.value(moved, 0, $0, 0) - Self.value(original, 0, $0, 0)) }
        #expect(shift.allSatisfy { abs($0) > 1e-4 && abs($0) <= maximum + 1e-6 }, "shift \(shift)")
        for frame in 0..<Self.frames {
            for joint in 0..<Self.joints where Self.isDetected(original, frame, joint) {
                for channel in 0..<3 {
                    let delta = Double(Self.value(moved, frame, channel, joint) - Self.value(original, frame, channel, joint))
                    #expect(abs(delta - shift[channel]) <= 1e-5)
                }
            }
        }
    }

    @Test func scaleMultipliesAllThreeOffsetsFromTheCentreByOneFactor() throws {
        let original = Self.window()
        let scaled = try Self.augmented([.scale(minimum: 0.8, maximum: 1.2)], index: 1)
        let centre = Self.centre(original)
        var factors: [Double] = []
        for frame in 0..<Self.frames {
            for joint in 0..<Self.joints where Self.isDetected(original, frame, joint) {
                for channel in 0..<3 {
                    let before = Double(Self.value(original, frame, channel, joint)) - centre[channel]
                    let after = Double(Self.value(scaled, frame, channel, joint)) - centre[channel]
                    if abs(before) > 0.05 { factors.append(after / before) }
                }
            }
        }
        let factor = try #require(factors.first)
        #expect((0.8...1.2).contains(factor) && abs(factor - 1) > 1e-4)
        #expect(factors.allSatisfy { abs($0 - factor) <= 1e-4 })
        // z offsets were scaled too (not only x and y).
        #expect(abs(Self.value(scaled, 0, 2, 0) - Self.value(original, 0, 2, 0)) > 1e-6)
    }

    @Test func shearIsLinearAboutTheCentreAndMovesAllThreeCoordinates() throws {
        let original = Self.window()
        let sheared = try Self.augmented([.shear(maximum: 0.3)], index: 4)
        // A linear map of the offsets keeps their mean, the centre, at zero offset.
        let (before, after) = (Self.centre(original), Self.centre(sheared))
        #expect(zip(before, after).allSatisfy { Self.close($0, $1, tolerance: 1e-5) })
        for channel in 0..<3 {
            #expect((0..<Self.joints).contains { abs(Self.value(sheared, 0, channel, $0) - Self.value(original, 0, channel, $0)) > 1e-4 })
        }
    }

    static let everyStep: [AugmentationStep] = [
        .horizontalFlip(probability: 1), .rotation(degrees: 30), .scale(minimum: 0.8, maximum: 1.2),
        .translation(maximum: 0.1), .shear(maximum: 0.2), .jitter(standardDeviation: 0.01),
        .timeInterpolation(minimumSpeed: 0.7, maximumSpeed: 1.4), .frameDrop(probability: 0.2),
        .jointDropout(probability: 0.1),
    ]

    @Test(arguments: everyStep)
    func paddedFramesAndUntrackedJointsStayZero(step: AugmentationStep) throws {
        let original = Self.window()
        for index in 0..<10 {
            let window = try Self.augmented([step], index: index)
            for frame in 0..<Self.frames {
                let detected = (0..<Self.joints).filter { Self.isDetected(window, frame, $0) }.count
                if case .timeInterpolation = step {
                    // Frames move in time, but no frame is partly padding: each is padding, or
                    // holds every joint but the one untracked left hand.
                    #expect(detected == 0 || detected >= Self.joints - 1, "frame \(frame): \(detected) joints")
                } else if Self.paddedFrames.contains(frame) {
                    #expect(detected == 0, "\(step.kind) revived padded frame \(frame)")
                }
            }
            if case .horizontalFlip = step {
                #expect(!Self.isDetected(window, 2, 11))
            } else if case .timeInterpolation = step {
            } else {
                #expect(!Self.isDetected(window, 2, 7), "\(step.kind) revived the untracked left hand")
                // Steps that only move or drop joints never detect a joint that was not.
                for frame in 0..<Self.frames {
                    for joint in 0..<Self.joints where Self.isDetected(window, frame, joint) {
                        #expect(Self.isDetected(original, frame, joint))
                    }
                }
            }
        }
    }

    @Test func anAllZeroWindowStaysZeroUnderTheFullPipeline() throws {
        let steps = try #require(AugmentationConfiguration.builtIn("full", for: Self.layout))
        let pipeline = try Self.pipeline(steps + Self.everyStep)
        for index in 0..<5 {
            var window = [Float](repeating: 0, count: Self.frames * 3 * Self.joints)
            pipeline.apply(to: &window, seed: 2, epoch: 1, index: index)
            #expect(window.allSatisfy { $0 == 0 })
        }
    }

    @Test func sameSeedEpochAndIndexGiveTheSameAugmentation() throws {
        let steps = try #require(AugmentationConfiguration.builtIn("full", for: Self.layout)) + [.shear(maximum: 0.1)]
        let reference = try Self.augmented(steps, seed: 1, epoch: 2, index: 3)
        #expect(try Self.augmented(steps, seed: 1, epoch: 2, index: 3) == reference)
        #expect(try Self.augmented(steps, seed: 1, epoch: 3, index: 3) != reference)
        #expect(try Self.augmented(steps, seed: 1, epoch: 2, index: 4) != reference)
        #expect(try Self.augmented(steps, seed: 2, epoch: 2, index: 3) != reference)
    }

    @Test func builtInFullForThreeDimensionalSkeletonsIsInMetresWithFlip() throws {
        let steps = try #require(AugmentationConfiguration.builtIn("full", for: Self.layout))
        #expect(steps == [
            .horizontalFlip(probability: 0.5), .rotation(degrees: 20), .scale(minimum: 0.9, maximum: 1.1),
            .translation(maximum: 0.05), .jitter(standardDeviation: 0.005),
            .timeInterpolation(minimumSpeed: 0.8, maximumSpeed: 1.25), .jointDropout(probability: 0.02),
        ])
        #expect(throws: Never.self) { try Self.pipeline(steps) }
        // The image-pose pipeline is unchanged.
        #expect(AugmentationConfiguration.builtIn("full", for: .vision18)?.contains(.rotation(degrees: 10)) == true)
        // A 3-D layout without mirror pairs cannot flip.
        let unpaired = SkeletonLayout(name: "sticks", joints: ["a", "b"], channels: ["x", "y", "z"], edges: [.init(0, 1)])
        #expect(throws: AugmentationError.unsupportedLayout(pipeline: "x", step: "flip", layout: "sticks", reason: "it has no mirror pairs")) {
            try AugmentationPipeline(name: "x", steps: [.horizontalFlip(probability: 0.5)], layout: unpaired)
        }
        #expect(throws: Never.self) {
            try AugmentationPipeline(name: "x", steps: [.rotation(degrees: 5), .shear(maximum: 0.1), .translation(maximum: 0.1)], layout: unpaired)
        }
    }
}
