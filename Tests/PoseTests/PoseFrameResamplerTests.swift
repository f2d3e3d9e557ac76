import Testing

@testable import Pose

/// The streaming resampler gives training's resampling, bit for bit, frame by frame.
@Suite struct PoseFrameResamplerTests {
    /// A sequence with irregular timestamps and some undetected (all-zero) joints.
    static func irregularSequence(frames: Int, seed: UInt64) -> PoseSequence {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let (channels, joints) = (3, 4)
        var time = 0.25
        var timestamps: [Double] = []
        var keypoints: [Float] = []
        for _ in 0..<frames {
            timestamps.append(time)
            time += 0.005 + next() * 0.06
            for _ in 0..<channels { for _ in 0..<joints { keypoints.append(Float(next())) } }
            if next() < 0.2 {
                let joint = Int(next() * Double(joints))
                for channel in 0..<channels { keypoints[keypoints.count - channels * joints + channel * joints + joint] = 0 }
            }
        }
        return PoseSequence(keypoints: keypoints, timestamps: timestamps, channelCount: channels, jointCount: joints, frameRate: 30)
    }

    @Test(arguments: [(30.0, 1 as UInt64), (30, 2), (60, 3), (7.5, 4), (1000, 5)])
    func framesFedOneAtATimeGiveTheWholeSequencesResampling(frameRate: Double, seed: UInt64) throws {
        let sequence = Self.irregularSequence(frames: 90, seed: seed)
        let expected = sequence.resampled(to: frameRate)
        var resampler = PoseFrameResampler(frameRate: frameRate, channelCount: 3, jointCount: 4)
        var frames: [PoseFrameResampler.Frame] = []
        for frame in 0..<sequence.frameCount {
            frames += try resampler.append(
                timestamp: sequence.timestamps[frame],
                keypoints: Array(sequence.keypoints[(frame * 12)..<((frame + 1) * 12)]))
        }
        frames += resampler.finish()
        #expect(frames.map(\.timestamp) == expected.timestamps)
        #expect(Array(frames.map(\.keypoints).joined()) == expected.keypoints)
        #expect(resampler.emittedFrameCount == expected.frameCount)
    }

    @Test func aUniformSequenceAtItsOwnRateComesBackUnchanged() throws {
        let timestamps = PoseSequence.uniformTimestamps(frameCount: 20, frameRate: 30)
        var resampler = PoseFrameResampler(frameRate: 30, channelCount: 1, jointCount: 2)
        var frames: [PoseFrameResampler.Frame] = []
        for (index, time) in timestamps.enumerated() {
            frames += try resampler.append(timestamp: time, keypoints: [Float(index), Float(-index)])
        }
        // A grid point waits for the frame after it, so the last one arrives with finish().
        #expect(frames.count == 19)
        frames += resampler.finish()
        #expect(frames.map(\.keypoints) == (0..<20).map { [Float($0), Float(-$0)] })
    }

    @Test func badFramesAreRefusedAndLeaveTheResamplerUnchanged() throws {
        var resampler = PoseFrameResampler(frameRate: 30, channelCount: 1, jointCount: 2)
        _ = try resampler.append(timestamp: 1, keypoints: [1, 2])
        #expect(throws: PoseFrameResampler.InputError.wrongValueCount(found: 3, expected: 2)) {
            try resampler.append(timestamp: 2, keypoints: [1, 2, 3])
        }
        #expect(throws: PoseFrameResampler.InputError.timestampNotIncreasing(1, previous: 1)) {
            try resampler.append(timestamp: 1, keypoints: [1, 2])
        }
        #expect(throws: PoseFrameResampler.InputError.timestampNotIncreasing(.infinity, previous: 1)) {
            try resampler.append(timestamp: .infinity, keypoints: [1, 2])
        }
        #expect(throws: PoseFrameResampler.InputError.nonFiniteValue(channel: 0, joint: 1)) {
            try resampler.append(timestamp: 2, keypoints: [1, .nan])
        }
        let frames = try resampler.append(timestamp: 1 + 2.0 / 30, keypoints: [3, 4])
        #expect(frames.map(\.keypoints) == [[1, 2], [2, 3]])
    }
}
