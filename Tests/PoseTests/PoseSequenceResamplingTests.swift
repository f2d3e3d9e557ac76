import ActionLabTestSupport
import Foundation
import Pose
import Testing

@Suite struct PoseSequenceResamplingTests {
    /// A one-joint, three-channel sequence whose channel c at time t is `f(t) + c`.
    static func sequence(timestamps: [Double], frameRate: Double, _ f: (Double) -> Double) -> PoseSequence {
        PoseSequence(
            keypoints: timestamps.flatMap { t in (0..<3).map { Float(f(t)) + Float($0) } },
            timestamps: timestamps, channelCount: 3, jointCount: 1, frameRate: frameRate)
    }

    /// Relative tolerance for interpolated Float32 values.
    static let tolerance: Float = 1e-5

    static func isClose(_ a: Float, _ b: Float) -> Bool {
        abs(a - b) <= tolerance * max(1, abs(a), abs(b))
    }

    @Test("Resampling a uniform sequence to its own rate changes nothing", arguments: [10, 25, 29.97, 30, 60])
    func identity(frameRate: Double) {
        let timestamps = PoseSequence.uniformTimestamps(frameCount: 50, frameRate: frameRate)
        let original = Self.sequence(timestamps: timestamps, frameRate: frameRate) { sin($0 * 7) }
        #expect(original.resampled(to: frameRate) == original)
    }

    @Test("Halving the rate picks every other frame", arguments: [10, 30, 60])
    func halving(frameRate: Double) {
        let original = Self.sequence(
            timestamps: PoseSequence.uniformTimestamps(frameCount: 11, frameRate: frameRate), frameRate: frameRate) { $0 * $0 }
        let halved = original.resampled(to: frameRate / 2)

        #expect(halved.frameCount == 6)
        #expect(halved.frameRate == frameRate / 2)
        for frame in 0..<6 {
            #expect(halved.timestamps[frame] == original.timestamps[2 * frame])
            for channel in 0..<3 {
                #expect(halved[frame, channel, 0] == original[2 * frame, channel, 0])
            }
        }
    }

    @Test("Upsampling interpolates linearly between frames")
    func upsampling() {
        let original = Self.sequence(timestamps: [0, 0.1, 0.2], frameRate: 10) { $0 == 0.1 ? 5 : 1 }
        let upsampled = original.resampled(to: 40)

        #expect(upsampled.frameCount == 9)
        let expected: [Float] = [1, 2, 3, 4, 5, 4, 3, 2, 1]
        for (frame, value) in expected.enumerated() {
            #expect(Self.isClose(upsampled[frame, 0, 0], value))
            #expect(Self.isClose(upsampled[frame, 2, 0], value + 2))
        }
    }

    @Test("Variable-rate input lands on a uniform grid, reproducing a linear signal")
    func variableRate() {
        let original = Self.sequence(timestamps: [0, 0.1, 0.3, 0.35, 0.6, 0.64], frameRate: 15) { 3 * $0 - 1 }
        let resampled = original.resampled(to: 10)

        #expect(resampled.frameCount == 7)  // 0, 0.1, ..., 0.6; 0.7 is past the last frame.
        for frame in 0..<7 {
            let time = Double(frame) / 10
            #expect(abs(resampled.timestamps[frame] - time) < 1e-12)
            #expect(Self.isClose(resampled[frame, 1, 0], Float(3 * time - 1) + 1))
        }
    }

    @Test("A joint undetected in a neighbouring frame stays undetected; others interpolate")
    func undetectedJoints() {
        // Two joints; joint 1 is undetected (0, 0, 0) in frame 1.
        let original = PoseSequence(
            keypoints: [
                0.2, 0.4,  0.3, 0.5,  0.9, 0.8,  // frame 0: x, y, confidence of joints 0 and 1
                0.4, 0.0,  0.5, 0.0,  0.9, 0.0,  // frame 1
            ],
            timestamps: [0, 0.1], channelCount: 3, jointCount: 2, frameRate: 10)

        let kept = original.resampled(to: 20)
        #expect(kept.frameCount == 3)
        #expect(Self.isClose(kept[1, 0, 0], 0.3))
        #expect((0..<3).allSatisfy { kept[1, $0, 1] == 0 })
        #expect(kept[0, 0, 1] == 0.4)  // Frames hit exactly are copied, detected or not.

        let interpolated = original.resampled(to: 20, treatingZeroJointsAsUndetected: false)
        #expect(Self.isClose(interpolated[1, 0, 1], 0.2))
        #expect(Self.isClose(interpolated[1, 2, 1], 0.4))
    }

    @Test("An empty sequence resamples to an empty sequence")
    func empty() {
        let empty = PoseSequence(keypoints: [], timestamps: [], channelCount: 3, jointCount: 18, frameRate: 30)
        let resampled = empty.resampled(to: 15)
        #expect(resampled.frameCount == 0)
        #expect(resampled.frameRate == 15)
    }

    /// `resampled(toFrameCount:)` spans first to last timestamp evenly, exact at both ends, on an
    /// uneven input; one input frame gives copies with increasing timestamps.
    @Test func resamplingToAFrameCountSpansTheSequence() {
        let input = Self.sequence(timestamps: [0, 0.1, 0.35, 0.4, 1.0], frameRate: 10) { 2 * $0 }
        let output = input.resampled(toFrameCount: 6, treatingZeroJointsAsUndetected: false)
        #expect(output.frameCount == 6)
        #expect(output.timestamps.first == 0 && output.timestamps.last == 1.0)
        for (k, t) in output.timestamps.enumerated() {
            #expect(abs(t - Double(k) * 0.2) < 1e-12)
            #expect(Self.isClose(output[k, 1, 0], Float(2 * t) + 1))
        }
        #expect(abs(output.frameRate - 5) < 1e-9)
        let single = Self.sequence(timestamps: [0.5], frameRate: 30) { $0 }.resampled(toFrameCount: 3)
        #expect(single.frameCount == 3 && single.keypoints == Array(repeating: [0.5, 1.5, 2.5], count: 3).flatMap { $0 })
        #expect(zip(single.timestamps, single.timestamps.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Issue 15, item 8: a span no `Int` counts trapped converting the frame count.
    @Test func frameCountOfAHugeSpanSaturatesInsteadOfTrapping() {
        #expect(PoseSequence.resampledFrameCount(firstTimestamp: 0, lastTimestamp: 1e308, at: 30) == Int.max)
        #expect(PoseSequence.resampledFrameCount(firstTimestamp: 0, lastTimestamp: 1, at: 30) == 31)
    }

    /// One gap rule for importers and the streaming resampler.
    @Test func gapRuleIsSharedWithTheStreamingResampler() throws {
        #expect(PoseFrameResampler.maximumFramesPerGap == PoseSequence.maximumFramesPerGap)
        #expect(PoseSequence.framesOfGapTooLong(seconds: 1000, at: 1000) == nil)
        #expect(PoseSequence.framesOfGapTooLong(seconds: 1e12, at: 30) == 3e13)
        #expect(PoseSequence.framesOfGapTooLong(seconds: 1e308, at: 30) == .infinity)
        var resampler = PoseFrameResampler(frameRate: 30, channelCount: 1, jointCount: 1)
        _ = try resampler.append(timestamp: 0, keypoints: [1])
        #expect(throws: PoseFrameResampler.InputError.gapTooLong(seconds: 1e12, frames: 3e13)) {
            _ = try resampler.append(timestamp: 1e12, keypoints: [1])
        }
    }
}
