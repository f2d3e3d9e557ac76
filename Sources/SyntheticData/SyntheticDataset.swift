import Foundation
import Pose
import Randomness

/// A labelled dataset of parametric body motions in the `vision18` layout, for tests and
/// benchmarks; every output says it is synthetic.
///
/// Each sequence is a ``SyntheticAction`` performed by a 3-D stick figure with its own
/// ``BodyProportions``, speed, amplitude and starting phase, seen by an orthographic camera
/// with its own yaw, roll, size and position (``SyntheticVariation``), then degraded like a
/// pose estimator's output: Gaussian keypoint noise, confidence values, and undetected joints
/// set to (0, 0, 0) as Vision pads them (randomly, for the ear turned away from the camera, and
/// for any point outside the frame). Coordinates are Vision's: normalized to [0, 1], origin
/// at the lower left, y up.
///
/// Generation is deterministic: sequence `i` of class `label` draws every value from
/// `SeededGenerator(seed: seed, purpose: "synthetic/<label>", index: i)`, so the same seed and
/// parameters give the same files, bit for bit, and adding a class leaves the others unchanged.
public struct SyntheticDataset: Sendable, Hashable {
    /// The version of the motion generator; changes whenever the same parameters would give
    /// different sequences. Recorded in `dataset.json`.
    public static let generatorVersion = 1

    /// The classes, one folder each.
    public var actions: [SyntheticAction]
    /// The number of sequences of every class.
    public var sequencesPerClass: Int
    /// The root seed.
    public var seed: UInt64
    /// Frames per second.
    public var frameRate: Double
    /// Length of every sequence, in seconds.
    public var duration: Double
    /// How sequences of a class differ.
    public var variation: SyntheticVariation

    /// Creates a dataset description; nothing is generated or checked until ``sequence(of:index:)``
    /// or ``write(to:)``.
    public init(
        actions: [SyntheticAction] = SyntheticAction.defaultSet, sequencesPerClass: Int = 20, seed: UInt64 = 0,
        frameRate: Double = 30, duration: Double = 3, variation: SyntheticVariation = SyntheticVariation()
    ) {
        self.actions = actions
        self.sequencesPerClass = sequencesPerClass
        self.seed = seed
        self.frameRate = frameRate
        self.duration = duration
        self.variation = variation
    }

    /// The number of frames of every sequence: `duration × frameRate`, rounded.
    public var frameCount: Int { Int((duration * frameRate).rounded()) }

    /// Checks the parameters.
    /// - Throws: ``SyntheticDataError/invalidParameter(name:value:reason:)`` for the first bad one,
    ///   including a sequence past ``maximumFramesPerSequence`` or a data set past ``maximumTotalFrames``.
    public func validate() throws {
        func fail(_ name: String, _ value: Any, _ reason: String) -> SyntheticDataError {
            .invalidParameter(name: name, value: "\(value)", reason: reason)
        }
        guard !actions.isEmpty else { throw fail("classes", "[]", "at least one class is needed") }
        guard Set(actions).count == actions.count else { throw fail("classes", actions.map(\.rawValue), "a class is listed twice") }
        guard sequencesPerClass >= 1 else { throw fail("sequences per class", sequencesPerClass, "must be at least 1") }
        guard frameRate.isFinite, frameRate > 0 else { throw fail("frame rate", frameRate, "must be a positive number of frames per second") }
        guard duration.isFinite, duration > 0 else { throw fail("duration", duration, "must be a positive number of seconds") }
        // Bounded before `frameCount` converts to Int, which traps past Int.max.
        guard duration * frameRate <= Double(Self.maximumFramesPerSequence) else {
            throw fail("duration", duration, "gives \(duration * frameRate) frames a sequence at \(frameRate) fps; at most "
                + "\(Self.maximumFramesPerSequence)")
        }
        guard frameCount >= 1 else { throw fail("duration", duration, "must last at least one frame") }
        let totalFrames = Double(frameCount) * Double(sequencesPerClass) * Double(actions.count)
        guard totalFrames <= Double(Self.maximumTotalFrames) else {
            throw fail("sequences per class", sequencesPerClass, "gives \(totalFrames) frames in all (\(actions.count) classes of "
                + "\(frameCount) frames each); at most \(Self.maximumTotalFrames)")
        }
    }

    /// The most frames one sequence may have (about 9 hours at 30 fps).
    public static let maximumFramesPerSequence = 1_000_000
    /// The most frames a data set may have in all (about 2 GB of keypoints).
    public static let maximumTotalFrames = 10_000_000

    /// Generates sequence `index` of `action`: `[frameCount, 3, 18]` keypoints at uniform timestamps.
    /// - Precondition: ``validate()`` passes.
    public func sequence(of action: SyntheticAction, index: Int) -> PoseSequence {
        var generator = SeededGenerator(seed: seed, purpose: "synthetic/\(action.rawValue)", index: index)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound < range.upperBound
                ? Double(generator.nextUniform(from: Float(range.lowerBound), to: Float(range.upperBound)))
                : range.lowerBound
        }
        let speed = uniform(variation.speed)
        let amplitude = uniform(variation.amplitude)
        let phase = uniform(0...1)
        let body = BodyProportions(varying: variation.proportions, using: &generator)
        let scale = uniform(variation.scale)
        // Keep the figure (about ±0.5 wide, 1.3 tall with raised arms) inside the frame.
        let camera = CameraView(
            yaw: uniform(variation.yaw), roll: uniform(variation.roll), scale: scale,
            origin: (x: uniform(variation.horizontalPosition), y: uniform(0.03...max(0.03, 0.97 - 1.3 * scale))),
            drift: (x: uniform(-0.03...0.03), y: uniform(-0.01...0.01)))
        let noise = Float(uniform(variation.noise))
        let missing = Float(uniform(variation.missingJoints))
        let confidence = uniform(variation.confidence)
        let layout = SkeletonLayout.vision18
        let jointOffsets = (0..<layout.jointCount).map { _ in uniform(-0.1...0.1) }
        let hiddenEar: Int? = camera.yaw > variation.hiddenEarYaw ? 17 : camera.yaw < -variation.hiddenEarYaw ? 16 : nil

        let frames = frameCount
        let jointCount = layout.jointCount
        var keypoints = [Float](repeating: 0, count: frames * 3 * jointCount)
        for frame in 0..<frames {
            let time = Double(frame) / frameRate
            let pose = action.pose(cycle: phase + speed * action.cyclesPerSecond * time, amplitude: amplitude)
            let joints = pose.joints(body)
            for joint in 0..<jointCount {
                let (x, y) = camera.project(joints[joint], progress: time / duration)
                let noisyX = Float(x) + generator.nextNormal(standardDeviation: noise)
                let noisyY = Float(y) + generator.nextNormal(standardDeviation: noise)
                let score = Float(min(1, max(0.05, confidence + jointOffsets[joint]))) + generator.nextNormal(standardDeviation: 0.04)
                let dropped = generator.nextUniform() < missing || joint == hiddenEar
                guard !dropped, (0...1).contains(noisyX), (0...1).contains(noisyY) else { continue }
                let base = frame * 3 * jointCount + joint
                keypoints[base] = noisyX
                keypoints[base + jointCount] = noisyY
                keypoints[base + 2 * jointCount] = min(1, max(0.05, score))
            }
        }
        return PoseSequence(
            keypoints: keypoints, timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: frameRate),
            channelCount: 3, jointCount: jointCount, frameRate: frameRate)
    }
}
