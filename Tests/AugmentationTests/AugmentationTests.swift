import Augmentation
import Manifest
import NeuralNetwork
import Pose
import Testing

/// The invariants each augmentation must keep, on a vision18 window with undetected joints.
@Suite struct AugmentationTests {
    static let layout = SkeletonLayout.vision18
    static let frames = 8

    /// A `[8, 3, 18]` window with distinct coordinates per joint and frame; joints 15 (leftEye)
    /// and 10 (rightAnkle) are undetected in every frame, joint 4 (rightWrist) in frame 3.
    static func window() -> [Float] {
        var values = [Float](repeating: 0, count: frames * 3 * 18)
        for frame in 0..<frames {
            for joint in 0..<18 where joint != 15 && joint != 10 && !(joint == 4 && frame == 3) {
                values[(frame * 3 + 0) * 18 + joint] = 0.2 + 0.03 * Float(joint) + 0.005 * Float(frame)
                values[(frame * 3 + 1) * 18 + joint] = 0.8 - 0.035 * Float(joint) + 0.002 * Float(frame * joint % 5)
                values[(frame * 3 + 2) * 18 + joint] = 0.5 + 0.02 * Float(joint % 7)
            }
        }
        return values
    }

    static func value(_ window: [Float], _ frame: Int, _ channel: Int, _ joint: Int) -> Float {
        window[(frame * 3 + channel) * 18 + joint]
    }

    static func undetected(_ window: [Float]) -> Set<[Int]> {
        var result = Set<[Int]>()
        for frame in 0..<frames {
            for joint in 0..<18 where (0..<3).allSatisfy({ value(window, frame, $0, joint) == 0 }) { result.insert([frame, joint]) }
        }
        return result
    }

    static func pipeline(_ steps: [AugmentationStep]) throws -> AugmentationPipeline {
        try AugmentationPipeline(name: "test", steps: steps, layout: layout)
    }

    @Test func flipTwiceIsTheIdentity() throws {
        let flip = try Self.pipeline([.horizontalFlip(probability: 1), .horizontalFlip(probability: 1)])
        var window = Self.window()
        flip.apply(to: &window, seed: 3, epoch: 1, index: 0)
        // 1 − (1 − x) equals x up to one rounding of Float32.
        #expect(zip(window, Self.window()).allSatisfy { abs($0 - $1) <= 1e-6 })
        #expect(Self.undetected(window) == Self.undetected(Self.window()))
    }

    @Test func flipMirrorsXAndSwapsExactlyTheMirrorPairs() throws {
        let flip = try Self.pipeline([.horizontalFlip(probability: 1)])
        var window = Self.window()
        flip.apply(to: &window, seed: 3, epoch: 1, index: 0)
        let original = Self.window()
        var partner = Array(0..<18)
        for pair in Self.layout.mirrorPairs {
            partner[pair.first] = pair.second
            partner[pair.second] = pair.first
        }
        for frame in 0..<Self.frames {
            for joint in 0..<18 {
                let source = partner[joint]
                let detected = (0..<3).contains { Self.value(original, frame, $0, source) != 0 }
                #expect(Self.value(window, frame, 0, joint) == (detected ? 1 - Self.value(original, frame, 0, source) : 0))
                #expect(Self.value(window, frame, 1, joint) == Self.value(original, frame, 1, source))
                #expect(Self.value(window, frame, 2, joint) == Self.value(original, frame, 2, source))
            }
        }
        // Nose (0) and neck (1) have no partner: only x is mirrored.
        #expect(Self.value(window, 0, 1, 0) == Self.value(original, 0, 1, 0))
    }

    @Test(arguments: [5.0, 30.0, 180.0])
    func rotationPreservesBoneLengths(degrees: Double) throws {
        let rotation = try Self.pipeline([.rotation(degrees: degrees)])
        var window = Self.window()
        rotation.apply(to: &window, seed: 11, epoch: 2, index: 7)
        #expect(window != Self.window())
        let original = Self.window()
        for frame in 0..<Self.frames {
            for edge in Self.layout.edges {
                let joints = [edge.first, edge.second]
                guard joints.allSatisfy({ Self.value(original, frame, 2, $0) != 0 }) else { continue }
                func length(_ w: [Float]) -> Float {
                    let dx = Self.value(w, frame, 0, edge.first) - Self.value(w, frame, 0, edge.second)
                    let dy = Self.value(w, frame, 1, edge.first) - Self.value(w, frame, 1, edge.second)
                    return (dx * dx + dy * dy).squareRoot()
                }
                #expect(abs(length(window) - length(original)) <= 1e-5 * max(1, length(original)))
            }
        }
    }

    static let everyStep: [AugmentationStep] = [
        .horizontalFlip(probability: 1), .rotation(degrees: 20), .scale(minimum: 0.8, maximum: 1.2),
        .translation(maximum: 0.1), .shear(maximum: 0.2), .jitter(standardDeviation: 0.01),
        .timeInterpolation(minimumSpeed: 0.7, maximumSpeed: 1.4), .frameDrop(probability: 0.2),
        .jointDropout(probability: 0.1),
    ]

    @Test(arguments: everyStep)
    func undetectedJointsStayUndetected(step: AugmentationStep) throws {
        let pipeline = try Self.pipeline([step])
        for index in 0..<10 {
            var window = Self.window()
            pipeline.apply(to: &window, seed: 1, epoch: 1, index: index)
            let before = Self.undetected(Self.window())
            let after = Self.undetected(window)
            switch step {
            case .horizontalFlip:
                // Undetected joints move with their mirror partner.
                #expect(after.count == before.count)
            case .timeInterpolation:
                // Frames can shift in time; every joint undetected throughout stays so.
                #expect(after.filter { $0[1] == 15 || $0[1] == 10 }.count >= Self.frames * 2)
            default:
                #expect(before.isSubset(of: after), "\(step.kind) revived an undetected joint")
            }
        }
    }

    @Test func sameSeedEpochAndIndexGiveTheSameAugmentation() throws {
        let pipeline = try Self.pipeline(Self.everyStep)
        func augmented(seed: Int, epoch: Int, index: Int) -> [Float] {
            var window = Self.window()
            pipeline.apply(to: &window, seed: seed, epoch: epoch, index: index)
            return window
        }
        #expect(augmented(seed: 1, epoch: 2, index: 3) == augmented(seed: 1, epoch: 2, index: 3))
        #expect(augmented(seed: 1, epoch: 2, index: 3) != augmented(seed: 1, epoch: 3, index: 3))
        #expect(augmented(seed: 1, epoch: 2, index: 3) != augmented(seed: 1, epoch: 2, index: 4))
        #expect(augmented(seed: 1, epoch: 2, index: 3) != augmented(seed: 2, epoch: 2, index: 3))
    }

    @Test func geometricStepsNeedPlanarLayoutsAndFlipNeedsMirrorPairs() {
        #expect(throws: AugmentationError.self) {
            try AugmentationPipeline(name: "x", steps: [.rotation(degrees: 5)], layout: .accelerometerGyroscope)
        }
        let noPairs = SkeletonLayout(name: "planar", joints: ["a", "b"], channels: ["x", "y", "confidence"])
        #expect(throws: AugmentationError.unsupportedLayout(pipeline: "x", step: "flip", layout: "planar", reason: "it has no mirror pairs")) {
            try AugmentationPipeline(name: "x", steps: [.horizontalFlip(probability: 0.5)], layout: noPairs)
        }
        // Sensor layouts take the non-geometric steps, scale among them (magnitude scaling).
        #expect(throws: Never.self) {
            try AugmentationPipeline(
                name: "full", steps: AugmentationConfiguration.builtIn("full", for: .accelerometerGyroscope) ?? [],
                layout: .accelerometerGyroscope)
        }
    }

    /// Image-pose outputs are those of the code before 3-D skeletons were supported, bit for bit:
    /// an FNV-1a hash of the Float32 bit patterns of 40 augmented windows, pinned from that code.
    @Test func imagePoseOutputsArePinned() throws {
        var hash: UInt64 = 0xcbf29ce484222325
        for steps in [try #require(AugmentationConfiguration.builtIn("full", for: Self.layout)), Self.everyStep] {
            let pipeline = try Self.pipeline(steps)
            for index in 0..<20 {
                var window = Self.window()
                pipeline.apply(to: &window, seed: 7, epoch: 3, index: index)
                for value in window { hash = (hash ^ UInt64(value.bitPattern)) &* 0x100000001b3 }
            }
        }
        #expect(hash == 0xaca5610bed6fb171)
    }

    @Test func timeInterpolationAtSpeedOneIsTheIdentity() throws {
        let pipeline = try Self.pipeline([.timeInterpolation(minimumSpeed: 1, maximumSpeed: 1)])
        var window = Self.window()
        pipeline.apply(to: &window, seed: 1, epoch: 1, index: 0)
        #expect(window == Self.window())
    }
}
