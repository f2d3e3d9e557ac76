import Foundation
import Pose
import SyntheticData
import Testing

@testable import Prediction

@Suite struct PeriodicityCounterTests {
    /// Keypoints `[T, 3, J]` of a body whose joints (a few of them moving) repeat a movement
    /// `repetitions` times with period `period` seconds, plus Gaussian noise and dropped joints.
    static func repeatingMotion(
        layout: SkeletonLayout, repetitions: Double, period: Double, frameRate: Double = 30, noise: Double,
        missingJoints: Double = 0, amplitude: Double = 1, seed: UInt64
    ) -> PoseSequence {
        var generator = TestGenerator(seed: seed)
        let is3D = layout.isSkeleton3D
        let jointCount = layout.jointCount
        let coordinates = is3D ? 3 : 2
        let base = (0..<jointCount).map { _ in
            is3D
                ? [Double.random(in: -0.4...0.4, using: &generator), Double.random(in: -0.8...0.8, using: &generator), Double.random(in: 2.5...3, using: &generator)]
                : [Double.random(in: 0.35...0.65, using: &generator), Double.random(in: 0.2...0.9, using: &generator)]
        }
        // Four moving joints, each along its own direction, two of them in antiphase, with a second harmonic.
        let moving = Array((0..<jointCount).shuffled(using: &generator).prefix(4))
        let scale = (is3D ? 0.25 : 0.08) * amplitude
        let directions = moving.map { _ in
            let raw = (0..<coordinates).map { _ in Double.random(in: -1...1, using: &generator) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm * scale * Double.random(in: 0.6...1.2, using: &generator) }
        }
        let phase = Double.random(in: 0..<(2 * .pi), using: &generator)
        let frameCount = Int((repetitions * period * frameRate).rounded())
        var keypoints = [Float](repeating: 0, count: frameCount * 3 * jointCount)
        for frame in 0..<frameCount {
            let angle = 2 * .pi * Double(frame) / frameRate / period + phase
            for joint in 0..<jointCount {
                if Double.random(in: 0..<1, using: &generator) < missingJoints { continue }
                var position = base[joint]
                if let slot = moving.firstIndex(of: joint) {
                    let shape = sin(angle + (slot % 2 == 0 ? 0 : .pi)) + 0.25 * sin(2 * angle + 0.5)
                    for axis in 0..<coordinates { position[axis] += directions[slot][axis] * shape }
                }
                for axis in 0..<coordinates {
                    keypoints[(frame * 3 + axis) * jointCount + joint] = Float(position[axis] + noise * generator.normal())
                }
                if !is3D { keypoints[(frame * 3 + 2) * jointCount + joint] = 0.9 }
            }
        }
        return PoseSequence(
            keypoints: keypoints, timestamps: PoseSequence.uniformTimestamps(frameCount: frameCount, frameRate: frameRate),
            channelCount: 3, jointCount: jointCount, frameRate: frameRate)
    }

    static let cases: [(layout: String, repetitions: Int, period: Double)] = [
        ("vision18", 2, 1.2), ("vision18", 3, 1.0), ("vision18", 5, 0.8), ("vision18", 8, 1.5), ("vision18", 12, 0.5),
        ("kinect-v1", 2, 2.0), ("kinect-v1", 4, 1.1), ("kinect-v1", 7, 0.7), ("kinect-v1", 10, 2.5),
    ]

    static func layout(named name: String) throws -> SkeletonLayout {
        try #require(SkeletonLayout.builtIn(named: name))
    }

    @Test(arguments: cases)
    func cleanRepetitionsAreCountedExactly(layoutName: String, repetitions: Int, period: Double) throws {
        let layout = try Self.layout(named: layoutName)
        let counter = try PeriodicityCounter()
        for seed in UInt64(0)..<8 {
            let noise = layoutName == "vision18" ? 0.002 : 0.005
            let sequence = Self.repeatingMotion(layout: layout, repetitions: Double(repetitions), period: period, noise: noise, seed: seed)
            let result = try counter.repetitions(in: sequence, layout: layout, timeRange: 0..<sequence.duration)
            #expect(result.count == repetitions, "seed \(seed)")
            #expect(abs((result.period ?? 0) - period) < 0.02 * period, "seed \(seed)")
            #expect(result.clarity > 0.9)
            #expect(result.frames == 0..<sequence.frameCount)
        }
    }

    @Test(arguments: cases)
    func noisyRepetitionsWithUndetectedJointsAreCountedExactly(layoutName: String, repetitions: Int, period: Double) throws {
        let layout = try Self.layout(named: layoutName)
        let counter = try PeriodicityCounter()
        for seed in UInt64(10)..<18 {
            // Noise of a fifth of the movement's scale on every coordinate, and 5 % of joints undetected.
            let noise = layoutName == "vision18" ? 0.016 : 0.05
            let sequence = Self.repeatingMotion(
                layout: layout, repetitions: Double(repetitions), period: period, noise: noise, missingJoints: 0.05, seed: seed)
            let result = try counter.repetitions(in: sequence, layout: layout, timeRange: 0..<sequence.duration)
            #expect(result.count == repetitions, "seed \(seed)")
        }
    }

    @Test(arguments: ["vision18", "kinect-v1"])
    func aStillPoseCountsNothing(layoutName: String) throws {
        let layout = try Self.layout(named: layoutName)
        let counter = try PeriodicityCounter()
        for seed in UInt64(20)..<28 {
            // Five seconds of one pose with keypoint noise.
            let still = Self.repeatingMotion(layout: layout, repetitions: 5, period: 1, noise: 0.004, amplitude: 0, seed: seed)
            let result = try counter.repetitions(in: still, layout: layout, timeRange: 0..<still.duration)
            #expect(result.count == 0, "seed \(seed)")
            #expect(result.period == nil)
            #expect((result.amplitude ?? 1) < 0.1, "seed \(seed)")
            #expect(result.peakTimes.isEmpty)
            // Without the stillness test, the jitter's lack of a period is what counts nothing.
            let ungated = try PeriodicityCounter(minimumAmplitude: 0).repetitions(in: still, layout: layout, timeRange: 0..<still.duration)
            #expect(ungated.count == 0, "seed \(seed)")
            #expect(ungated.clarity < 0.5, "seed \(seed)")
        }
        // Without any noise nothing moves at all.
        let frozen = PoseSequence(
            keypoints: [Float](repeating: 0.5, count: 90 * 3 * layout.jointCount), timestamps: PoseSequence.uniformTimestamps(frameCount: 90, frameRate: 30),
            channelCount: 3, jointCount: layout.jointCount, frameRate: 30)
        #expect(try counter.repetitions(in: frozen, layout: layout, timeRange: 0..<3).count == 0)
    }

    @Test func onlyTheFramesInTheTimeRangeAreCounted() throws {
        let layout = SkeletonLayout.vision18
        let motion = Self.repeatingMotion(layout: layout, repetitions: 6, period: 1, noise: 0.002, seed: 40)
        // Two seconds of the first frame held before the motion and two after it.
        let perFrame = motion.valuesPerFrame
        let head = Array(repeating: Array(motion.keypoints[0..<perFrame]), count: 60).flatMap { $0 }
        let tail = Array(repeating: Array(motion.keypoints[(motion.keypoints.count - perFrame)...]), count: 60).flatMap { $0 }
        let frames = 60 + motion.frameCount + 60
        let sequence = PoseSequence(
            keypoints: head + motion.keypoints + tail, timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: 30),
            channelCount: 3, jointCount: layout.jointCount, frameRate: 30)
        let counter = try PeriodicityCounter()
        let segment = ActionSegment(label: "wave", start: 2, end: 8, predictions: 0...10, meanConfidence: 0.9)
        let result = try counter.repetitions(in: sequence, layout: layout, segment: segment)
        #expect(result.frames == 60..<240)
        #expect(result.count == 6)
        #expect(result.peakTimes.count >= 5)
        #expect(result.peakTimes.allSatisfy { (2..<8).contains($0) })
        #expect(try counter.repetitions(in: sequence, layout: layout, timeRange: 0..<2).count == 0)
    }

    /// Repetitions of one second separated by pauses of 0.3 to 0.9 s in the rest pose. (With
    /// fewer repetitions so uneven, the motion may show no clear period.)
    @Test(arguments: [4, 6, 9])
    func repetitionsWithUnevenPausesAreCountedPeakByPeak(repetitions: Int) throws {
        let layout = SkeletonLayout.vision18
        let counter = try PeriodicityCounter()
        for seed in UInt64(50)..<60 {
            var generator = TestGenerator(seed: seed)
            let frameRate = 30.0
            // A rest of a quarter of a second at both ends, uneven pauses between repetitions.
            var phases: [Double] = Array(repeating: 0, count: 8)
            for repetition in 0..<repetitions {
                phases += (0..<30).map { Double($0) / 30 }
                let pause = repetition == repetitions - 1 ? 8 : Int.random(in: 9...27, using: &generator)
                phases += Array(repeating: 0, count: pause)
            }
            let base = (0..<layout.jointCount).map { _ in (Double.random(in: 0.35...0.65, using: &generator), Double.random(in: 0.2...0.9, using: &generator)) }
            var keypoints = [Float](repeating: 0, count: phases.count * 3 * layout.jointCount)
            for (frame, phase) in phases.enumerated() {
                // The wrists and elbows rise and come back: (1 − cos) / 2, still at phase 0.
                let lift = (1 - cos(2 * .pi * phase)) / 2
                for joint in 0..<layout.jointCount {
                    let moving = [3, 4, 6, 7].contains(joint)
                    keypoints[(frame * 3) * layout.jointCount + joint] = Float(base[joint].0 + 0.002 * generator.normal())
                    keypoints[(frame * 3 + 1) * layout.jointCount + joint] = Float(base[joint].1 + (moving ? 0.15 * lift : 0) + 0.002 * generator.normal())
                    keypoints[(frame * 3 + 2) * layout.jointCount + joint] = 0.9
                }
            }
            let sequence = PoseSequence(
                keypoints: keypoints, timestamps: PoseSequence.uniformTimestamps(frameCount: phases.count, frameRate: frameRate), channelCount: 3,
                jointCount: layout.jointCount, frameRate: frameRate)
            let result = try counter.repetitions(in: sequence, layout: layout, timeRange: 0..<sequence.duration)
            #expect(result.count == repetitions, "seed \(seed): period \(result.period ?? 0), clarity \(result.clarity)")
            #expect(result.peakTimes.count == repetitions, "seed \(seed)")
        }
    }

    @Test func lessThanOneAndAHalfRepetitionsShowNoPeriod() throws {
        let sequence = Self.repeatingMotion(layout: .vision18, repetitions: 1.2, period: 1, noise: 0.002, seed: 41)
        let result = try PeriodicityCounter().repetitions(in: sequence, layout: .vision18, timeRange: 0..<sequence.duration)
        #expect(result.count == 0)
        #expect(result.period == nil)
    }

    /// ActionLab's parametric motions at a fixed speed, over a whole number of cycles, with the
    /// generator's viewpoints, body proportions, noise and undetected joints.
    @Test(arguments: [
        (SyntheticAction.armRaise, 4), (.squat, 3), (.jumpingJack, 6), (.armCircles, 7), (.punch, 5), (.walkingInPlace, 5),
        (.sideBend, 3),
    ])
    func syntheticMotionsAreCountedExactly(action: SyntheticAction, cycles: Int) throws {
        var variation = SyntheticVariation()
        variation.speed = 1...1
        let dataset = SyntheticDataset(
            actions: [action], sequencesPerClass: 6, seed: 12, frameRate: 30, duration: Double(cycles) / action.cyclesPerSecond, variation: variation)
        let counter = try PeriodicityCounter()
        for index in 0..<dataset.sequencesPerClass {
            let sequence = dataset.sequence(of: action, index: index)
            let result = try counter.repetitions(in: sequence, layout: .vision18, timeRange: 0..<sequence.duration)
            #expect(result.count == cycles, "sequence \(index)")
            #expect(abs((result.period ?? 0) - 1 / action.cyclesPerSecond) < 0.03 / action.cyclesPerSecond, "sequence \(index)")
        }
    }

    @Test func theSyntheticIdleStanceCountsNothing() throws {
        let dataset = SyntheticDataset(actions: [.idle], sequencesPerClass: 6, seed: 12, frameRate: 30, duration: 8)
        let counter = try PeriodicityCounter()
        for index in 0..<dataset.sequencesPerClass {
            let sequence = dataset.sequence(of: .idle, index: index)
            let result = try counter.repetitions(in: sequence, layout: .vision18, timeRange: 0..<sequence.duration)
            #expect(result.count == 0, "sequence \(index)")
            #expect((result.amplitude ?? 1) < 0.1, "sequence \(index)")
        }
    }

    /// A sensor layout has no body: every channel is signal, zeros are readings, and there is no stillness test.
    @Test func aSensorChannelIsCountedWithoutABody() throws {
        let frameRate = 50.0
        let frames = Int(9 * 0.8 * frameRate)
        var generator = TestGenerator(seed: 43)
        let values = (0..<frames).map { Float(sin(2 * .pi * Double($0) / frameRate / 0.8) + 0.1 * generator.normal()) }
        let sequence = PoseSequence(
            keypoints: values, timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: frameRate), channelCount: 1,
            jointCount: 1, frameRate: frameRate)
        let result = try PeriodicityCounter().repetitions(in: sequence, layout: .univariate, timeRange: 0..<sequence.duration)
        #expect(result.count == 9)
        #expect(result.amplitude == nil)
        #expect(abs((result.period ?? 0) - 0.8) < 0.01)
    }

    @Test func aSequenceThatIsNotOfTheLayoutAndBadParametersAreErrors() throws {
        let sequence = Self.repeatingMotion(layout: .vision18, repetitions: 3, period: 1, noise: 0, seed: 42)
        #expect(
            throws: PostprocessingError.layoutMismatch(layout: "kinect-v1", expectedChannels: 3, expectedJoints: 20, foundChannels: 3, foundJoints: 18)
        ) {
            try PeriodicityCounter().repetitions(in: sequence, layout: Self.layout(named: "kinect-v1"), timeRange: 0..<3)
        }
        #expect(throws: PostprocessingError.self) { try PeriodicityCounter(minimumPeriod: 0) }
        #expect(throws: PostprocessingError.self) { try PeriodicityCounter(minimumPeriod: 2, maximumPeriod: 1) }
        #expect(throws: PostprocessingError.self) { try PeriodicityCounter(minimumClarity: 1.5) }
        #expect(throws: PostprocessingError.self) { try PeriodicityCounter(minimumAmplitude: -1) }
    }
}
