extension PoseSequence {
    /// Grid points and input frames this close (in input intervals or output frames) coincide,
    /// so that rounding in `k / frameRate` neither drops the last frame nor blends neighbours.
    static let resamplingTolerance = 1e-6

    /// The most frames one gap between consecutive timestamps may fill when resampled (about 9
    /// hours at 30 frames per second): a larger gap is a wrong timestamp, not a recording. The
    /// one rule of importers (at the file's frame rate) and ``PoseFrameResampler`` (at its
    /// output rate), so that no resampling allocates or loops past it.
    public static let maximumFramesPerGap = 1_000_000

    /// The frames a gap of `seconds` between two timestamps fills at `frameRate`, if that is
    /// more than ``maximumFramesPerGap`` (or not finite); nil for a gap within the rule.
    ///
    /// - Parameters:
    ///   - seconds: The time from one timestamp to the next.
    ///   - frameRate: Frames per second.
    /// - Returns: The frames (rounded; possibly infinite) of a gap too long, or nil.
    public static func framesOfGapTooLong(seconds: Double, at frameRate: Double) -> Double? {
        let frames = seconds * frameRate
        return frames <= Double(maximumFramesPerGap) ? nil : frames.rounded()
    }

    /// The number of frames ``resampled(to:treatingZeroJointsAsUndetected:)`` returns, without
    /// resampling: the grid points `t₀ + k / frameRate` up to the last timestamp.
    public func resampledFrameCount(at frameRate: Double) -> Int {
        guard let first = timestamps.first, let last = timestamps.last else { return 0 }
        return Self.resampledFrameCount(firstTimestamp: first, lastTimestamp: last, at: frameRate)
    }

    /// The number of frames resampling a non-empty sequence spanning `firstTimestamp` to
    /// `lastTimestamp` (seconds) to `frameRate` gives, for callers that hold only the two
    /// timestamps (a feature-cache index): `⌊(last − first) · frameRate⌋ + 1`, with the tolerance
    /// of ``resampled(to:treatingZeroJointsAsUndetected:)``; `Int.max` for a span no `Int`
    /// counts (timestamps past ``maximumFramesPerGap`` are refused by the importers), never a trap.
    public static func resampledFrameCount(firstTimestamp: Double, lastTimestamp: Double, at frameRate: Double) -> Int {
        let frames = ((lastTimestamp - firstTimestamp) * frameRate + resamplingTolerance).rounded(.down)
        guard frames < Double(Int.max) else { return Int.max }
        return frames.isNaN ? 0 : Int(frames) + 1
    }

    /// The sequence linearly interpolated onto a uniform time grid at `frameRate`.
    ///
    /// The grid is `t_k = t_0 + k / frameRate` for every `k` with `t_k` at most the last
    /// timestamp, where `t_0` is the first timestamp. Each output frame interpolates linearly
    /// between the two input frames around `t_k`; a grid point within a millionth of an input
    /// interval of an input frame copies that frame exactly, so resampling a uniform sequence to
    /// its own rate returns it unchanged and halving the rate picks every other frame.
    ///
    /// Undetected joints: Vision and ActionLab's pose estimators mark a joint that was not detected
    /// as all channels 0 (`0, 0, 0`). Interpolating toward such a frame would drag the joint
    /// toward the image's lower-left corner, so by default a joint that is undetected (every
    /// channel exactly 0) in either neighbouring frame is undetected in the output frame too.
    /// Pass `treatingZeroJointsAsUndetected: false` for layouts where all-zero is a real reading,
    /// such as sensor channels.
    ///
    /// - Parameters:
    ///   - frameRate: The output frame rate in frames per second; greater than zero.
    ///   - treatingZeroJointsAsUndetected: Whether an all-zero joint is undetected rather than a
    ///     value to interpolate (body-pose layouts).
    /// - Returns: A sequence of shape `[T', C, J]` with `T' = floor((t_last - t_0) * frameRate) + 1`
    ///   frames (empty if this sequence is empty) and nominal frame rate `frameRate`.
    /// - Precondition: `frameRate` is positive and finite; timestamps strictly increase.
    public func resampled(to frameRate: Double, treatingZeroJointsAsUndetected: Bool = true) -> PoseSequence {
        precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be a positive number of frames per second")
        guard let first = timestamps.first else {
            return PoseSequence(keypoints: [], timestamps: [], channelCount: channelCount, jointCount: jointCount, frameRate: frameRate)
        }
        return interpolated(
            frameCount: resampledFrameCount(at: frameRate), frameRate: frameRate,
            treatingZeroJointsAsUndetected: treatingZeroJointsAsUndetected
        ) { first + Double($0) / frameRate }
    }

    /// The sequence linearly interpolated onto `frameCount` evenly spaced times from its first to
    /// its last timestamp: how PYSKL's `UniformSample` covers a whole segmented action with a
    /// fixed number of frames, here deterministic (interpolating rather than picking a random
    /// frame per segment), so a recording of any length becomes one window.
    ///
    /// Output frame `k` is at `t₀ + k · (t_last − t₀) / (frameCount − 1)` (all at `t₀` for one
    /// output frame), interpolated as in ``resampled(to:treatingZeroJointsAsUndetected:)``, with
    /// the same treatment of undetected joints; a one-frame sequence (or `frameCount` 1) gives
    /// `frameCount` copies of the first frame, at the sequence's own frame interval. The nominal frame rate is `(frameCount − 1) / (t_last − t₀)`, or this
    /// sequence's when it spans no time.
    ///
    /// - Parameters:
    ///   - frameCount: The number of output frames, `T'`; at least 1.
    ///   - treatingZeroJointsAsUndetected: Whether an all-zero joint is undetected (body pose).
    /// - Returns: `[T', C, J]`; empty if this sequence is empty.
    /// - Precondition: `frameCount >= 1`; timestamps strictly increase.
    public func resampled(toFrameCount frameCount: Int, treatingZeroJointsAsUndetected: Bool = true) -> PoseSequence {
        precondition(frameCount >= 1, "a resampled sequence has at least one frame")
        guard let first = timestamps.first, let last = timestamps.last else {
            return PoseSequence(keypoints: [], timestamps: [], channelCount: channelCount, jointCount: jointCount, frameRate: frameRate)
        }
        let span = last - first
        let step = frameCount > 1 ? span / Double(frameCount - 1) : 0
        guard step > 0 else {
            // No time to spread over (one output frame, or one input frame): copies of the first
            // frame, one frame interval apart so that timestamps still increase.
            let frame = keypoints[0..<valuesPerFrame]
            return PoseSequence(
                keypoints: Array(repeatElement(frame, count: frameCount).joined()),
                timestamps: (0..<frameCount).map { first + Double($0) / frameRate },
                channelCount: channelCount, jointCount: jointCount, frameRate: frameRate)
        }
        let rate = 1 / step
        return interpolated(frameCount: frameCount, frameRate: rate, treatingZeroJointsAsUndetected: treatingZeroJointsAsUndetected) {
            $0 == frameCount - 1 ? last : first + Double($0) * step
        }
    }

    /// The frames at times `time(0), time(1), …` (non-decreasing, within the sequence's span),
    /// each interpolated linearly between the input frames around it.
    private func interpolated(
        frameCount outputCount: Int, frameRate: Double, treatingZeroJointsAsUndetected: Bool, time: (Int) -> Double
    ) -> PoseSequence {
        let tolerance = Self.resamplingTolerance
        var outputKeypoints: [Float] = []
        outputKeypoints.reserveCapacity(outputCount * valuesPerFrame)
        var outputTimestamps: [Double] = []
        outputTimestamps.reserveCapacity(outputCount)

        var before = 0  // The last input frame at or before the grid point.
        for k in 0..<outputCount {
            let time = time(k)
            while before + 1 < self.frameCount && timestamps[before + 1] <= time { before += 1 }
            outputTimestamps.append(time)
            guard before + 1 < self.frameCount else {
                appendFrame(before, to: &outputKeypoints)
                continue
            }
            let weight = (time - timestamps[before]) / (timestamps[before + 1] - timestamps[before])
            if weight <= tolerance {
                appendFrame(before, to: &outputKeypoints)
            } else if weight >= 1 - tolerance {
                appendFrame(before + 1, to: &outputKeypoints)
            } else {
                appendInterpolatedFrame(
                    between: before, and: before + 1, weight: Float(weight),
                    treatingZeroJointsAsUndetected: treatingZeroJointsAsUndetected, to: &outputKeypoints)
            }
        }
        return PoseSequence(
            keypoints: outputKeypoints, timestamps: outputTimestamps,
            channelCount: channelCount, jointCount: jointCount, frameRate: frameRate)
    }

    /// Appends the `C * J` values of frame `frame`.
    private func appendFrame(_ frame: Int, to output: inout [Float]) {
        output.append(contentsOf: keypoints[frame * valuesPerFrame ..< (frame + 1) * valuesPerFrame])
    }

    /// Appends `(1 - weight) * frame a + weight * frame b`, leaving joints undetected in either
    /// frame at zero when asked to.
    private func appendInterpolatedFrame(
        between a: Int, and b: Int, weight: Float, treatingZeroJointsAsUndetected: Bool, to output: inout [Float]
    ) {
        Self.appendInterpolatedFrame(
            keypoints[a * valuesPerFrame ..< (a + 1) * valuesPerFrame], keypoints[b * valuesPerFrame ..< (b + 1) * valuesPerFrame],
            weight: weight, channelCount: channelCount, jointCount: jointCount,
            treatingZeroJointsAsUndetected: treatingZeroJointsAsUndetected, to: &output)
    }

    /// Appends `(1 - weight) * a + weight * b` for two `[C, J]` frames: the one definition of an
    /// interpolated frame, shared by whole-sequence resampling and ``PoseFrameResampler``.
    static func appendInterpolatedFrame(
        _ a: ArraySlice<Float>, _ b: ArraySlice<Float>, weight: Float, channelCount: Int, jointCount: Int,
        treatingZeroJointsAsUndetected: Bool, to output: inout [Float]
    ) {
        let start = output.count
        let (baseA, baseB) = (a.startIndex, b.startIndex)
        output.append(contentsOf: repeatElement(0, count: channelCount * jointCount))
        for joint in 0..<jointCount {
            if treatingZeroJointsAsUndetected {
                let undetectedA = (0..<channelCount).allSatisfy { a[baseA + $0 * jointCount + joint] == 0 }
                let undetectedB = (0..<channelCount).allSatisfy { b[baseB + $0 * jointCount + joint] == 0 }
                if undetectedA || undetectedB { continue }
            }
            for channel in 0..<channelCount {
                let from = a[baseA + channel * jointCount + joint], to = b[baseB + channel * jointCount + joint]
                output[start + channel * jointCount + joint] = from + (to - from) * weight
            }
        }
    }
}
