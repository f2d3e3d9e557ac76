import Pose

/// Counts the repetitions of an action within a stretch of time from the periodicity of the
/// pose itself: the counterpart of Create ML Components' action counter, here without a
/// learned model.
///
/// The method, for the frames of a ``PoseSequence`` whose timestamps fall in a time range (for
/// example an ``ActionSegment``):
/// 1. The motion signal: the joint coordinates (every channel but `confidence`), undetected
///    joints (all zeros) interpolated from the neighbouring frames, relative to the body's mean
///    joint position in each frame (for body layouts), centred over time, are projected on
///    their first principal component (power iteration).
/// 2. The amplitude: the signal's root mean square over the body's size (the root mean square
///    distance of the joints from their mean). Below ``minimumAmplitude`` the body is taken to
///    be still, its signal keypoint jitter, and the count is 0. Layouts without a body (sensor
///    channels) skip this test.
/// 3. The period: the shortest lag at which the signal repeats clearly, the first key maximum of
///    its normalized square difference function (an autocorrelation normalized by the overlap's
///    energy; McLeod and Wyvill 2005) that reaches ``minimumClarity``, between ``minimumPeriod``
///    and ``maximumPeriod`` and at most two thirds of the range. When no key maximum reaches
///    it, the motion is not periodic and the count is 0.
/// 4. The count: the peaks of the signal smoothed over a tenth of a period on each side, with
///    a prominence of at least a quarter of the signal's range and at least 0.6 period apart,
///    give one repetition each from the first to the last; the parts before the first peak and
///    after the last add `round((first − start + end − last) / period)`. For `n` whole periods
///    this is exactly `n` whatever the phase, a peak that falls on the range's edge is not lost
///    or counted twice, and uneven rhythm (a pause between repetitions) is followed peak by peak.
///
/// Periodicity needs at least 1.5 repetitions inside the range to be seen; a shorter stretch
/// counts 0, and so may three or fewer repetitions whose pauses differ a lot (the lag of one
/// repetition then repeats too poorly). Frames are taken as equally spaced at the sequence's
/// frame rate.
public struct PeriodicityCounter: Sendable, Equatable {
    /// The shortest repetition looked for, in seconds. Default 0.25 s (4 per second).
    public let minimumPeriod: Double
    /// The longest repetition looked for, in seconds. Default 6 s.
    public let maximumPeriod: Double
    /// The clarity (normalized square difference at the period, in (0, 1]) below which motion
    /// is not periodic. Default 0.5; white noise stays near 0 and a clean repetition near 1.
    public let minimumClarity: Double
    /// The amplitude (see the type's discussion: motion over body size) below which a body is
    /// still. Default 0.1: keypoint noise of 2 % of the body's size on a still body gives about
    /// 0.05, as does ActionLab's synthetic `idle` stance (sway and breathing), while its
    /// synthetic exercises move 0.2 (punch) to 1.
    public let minimumAmplitude: Double

    /// Creates a counter.
    /// - Parameters:
    ///   - minimumPeriod: In seconds; positive.
    ///   - maximumPeriod: In seconds; greater than `minimumPeriod`.
    ///   - minimumClarity: In (0, 1].
    ///   - minimumAmplitude: At least 0 (0 = no stillness test).
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` for a value out of range.
    public init(minimumPeriod: Double = 0.25, maximumPeriod: Double = 6, minimumClarity: Double = 0.5, minimumAmplitude: Double = 0.1)
        throws(PostprocessingError)
    {
        guard minimumPeriod.isFinite, minimumPeriod > 0 else {
            throw .invalidParameter(name: "minimum period", value: "\(minimumPeriod)", reason: "must be a positive number of seconds")
        }
        guard maximumPeriod.isFinite, maximumPeriod > minimumPeriod else {
            throw .invalidParameter(
                name: "maximum period", value: "\(maximumPeriod)", reason: "must be a number of seconds above the minimum period (\(minimumPeriod) s)")
        }
        guard minimumClarity > 0, minimumClarity <= 1 else {
            throw .invalidParameter(name: "minimum clarity", value: "\(minimumClarity)", reason: "must be in (0, 1]")
        }
        guard minimumAmplitude.isFinite, minimumAmplitude >= 0 else {
            throw .invalidParameter(name: "minimum amplitude", value: "\(minimumAmplitude)", reason: "must be a finite number, at least 0")
        }
        self.minimumAmplitude = minimumAmplitude
        self.minimumPeriod = minimumPeriod
        self.maximumPeriod = maximumPeriod
        self.minimumClarity = minimumClarity
    }

    /// The repetitions in the frames of `sequence` whose timestamps fall in `timeRange`.
    ///
    /// - Parameters:
    ///   - sequence: Keypoints `[T, C, J]` laid out by `layout`.
    ///   - layout: The sequence's skeleton layout (which channels are coordinates, whether zeros
    ///     mark undetected joints, whether the body's translation is removed).
    ///   - timeRange: In seconds on the sequence's timestamps.
    /// - Returns: The count, the period and the peaks' times.
    /// - Throws: ``PostprocessingError/layoutMismatch(layout:expectedChannels:expectedJoints:foundChannels:foundJoints:)``
    ///   when the sequence's shape is not the layout's; ``PostprocessingError/lengthMismatch(what:expected:found:)``
    ///   when its keypoints are not `[T, C, J]` for its `T` timestamps.
    public func repetitions(in sequence: PoseSequence, layout: SkeletonLayout, timeRange: Range<Double>) throws(PostprocessingError)
        -> Repetitions
    {
        guard sequence.keypoints.count == sequence.frameCount * sequence.valuesPerFrame else {
            throw .lengthMismatch(
                what: "keypoints of the pose sequence", expected: sequence.frameCount * sequence.valuesPerFrame, found: sequence.keypoints.count)
        }
        guard sequence.channelCount == layout.channelCount, sequence.jointCount == layout.jointCount else {
            throw .layoutMismatch(
                layout: layout.name, expectedChannels: layout.channelCount, expectedJoints: layout.jointCount,
                foundChannels: sequence.channelCount, foundJoints: sequence.jointCount)
        }
        let first = sequence.timestamps.firstIndex { $0 >= timeRange.lowerBound } ?? sequence.frameCount
        let end = sequence.timestamps[first...].firstIndex { $0 >= timeRange.upperBound } ?? sequence.frameCount
        let frames = first..<max(first, end)
        guard sequence.frameRate.isFinite, sequence.frameRate > 0,
            let signal = PoseMotionSignal(sequence: sequence, layout: layout, frames: frames)
        else { return Repetitions(count: 0, period: nil, clarity: 0, amplitude: nil, peakTimes: [], frames: frames) }
        let amplitude = signal.bodySize.map { size in
            size > 0 ? (signal.values.reduce(0) { $0 + $1 * $1 } / Double(signal.values.count)).squareRoot() / size : 0
        }
        let none = Repetitions(count: 0, period: nil, clarity: 0, amplitude: amplitude, peakTimes: [], frames: frames)
        if let amplitude, amplitude < minimumAmplitude { return none }

        // Lags in frames, clamped in Double before they become integers (any frame rate is safe).
        let frameLimit = Double(frames.count)
        let shortest = max(2, Int(min(frameLimit, minimumPeriod * sequence.frameRate).rounded(.down)))
        let longest = min(Int(min(frameLimit, maximumPeriod * sequence.frameRate).rounded(.up)), frames.count * 2 / 3)
        guard shortest < longest, let estimate = PeriodEstimate(signal: signal.values, lags: shortest...longest, minimumClarity: minimumClarity)
        else { return none }
        guard estimate.clarity >= minimumClarity else {
            return Repetitions(count: 0, period: nil, clarity: estimate.clarity, amplitude: amplitude, peakTimes: [], frames: frames)
        }

        let peaks = SignalPeaks(signal: signal.values, period: estimate.period).positions
        let count: Int
        if let firstPeak = peaks.first, let lastPeak = peaks.last {
            let edges = (firstPeak + Double(frames.count) - lastPeak) / estimate.period
            count = peaks.count - 1 + Int(edges.rounded())
        } else {
            count = Int((Double(frames.count) / estimate.period).rounded())
        }
        let peakTimes = peaks.map { position in
            let base = Int(position.rounded(.down))
            return sequence.timestamps[frames.lowerBound + base] + (position - Double(base)) / sequence.frameRate
        }
        return Repetitions(
            count: count, period: estimate.period / sequence.frameRate, clarity: estimate.clarity, amplitude: amplitude, peakTimes: peakTimes,
            frames: frames)
    }

    /// The repetitions within `segment`'s time range (``ActionSegment/start`` ..< ``ActionSegment/end``).
    /// - Throws: As ``repetitions(in:layout:timeRange:)``.
    public func repetitions(in sequence: PoseSequence, layout: SkeletonLayout, segment: ActionSegment) throws(PostprocessingError)
        -> Repetitions
    {
        // A segment with a NaN bound reads no frame.
        let valid = !segment.start.isNaN && !segment.end.isNaN
        let start = valid ? segment.start : 0
        return try repetitions(in: sequence, layout: layout, timeRange: start..<(valid ? max(start, segment.end) : start))
    }
}
