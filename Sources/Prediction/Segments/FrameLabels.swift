/// Frame-wise labels from labelled time intervals: what temporal action segmentation scores.
///
/// Frame `n` of a stream at frame rate `f` is the instant `n / f` seconds after the stream's
/// first frame, and it takes the label of the half-open interval `[start, end)` that holds that
/// instant (a frame exactly on a boundary belongs to the later interval); frames that no
/// interval holds are nil (background). Boundaries are compared with a tolerance of 10⁻⁶ frame,
/// so an interval computed as `k / f` in floating point starts at frame `k`, as intended.
public enum FrameLabels {
    /// One label per frame for frames `0..<frameCount` from labelled intervals.
    ///
    /// - Parameters:
    ///   - intervals: `(label, start, end)` in seconds from the stream's first frame, for example
    ///     annotations; where intervals overlap, the later one in the array wins. An interval
    ///     with `end <= start` holds no frame.
    ///   - frameCount: N, the number of frames.
    ///   - frameRate: The frames' rate, in frames per second.
    /// - Returns: `[N]` labels, nil where no interval holds the frame.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` for a negative frame
    ///   count, a frame rate that is not positive, or an interval bound that is NaN.
    public static func labels(ofIntervals intervals: [(label: String, start: Double, end: Double)], frameCount: Int, frameRate: Double)
        throws(PostprocessingError) -> [String?]
    {
        guard frameCount >= 0 else { throw .invalidParameter(name: "frame count", value: "\(frameCount)", reason: "must not be negative") }
        guard frameRate.isFinite, frameRate > 0 else {
            throw .invalidParameter(name: "frame rate", value: "\(frameRate)", reason: "must be a positive number of frames per second")
        }
        var labels = [String?](repeating: nil, count: frameCount)
        for interval in intervals {
            guard !interval.start.isNaN, !interval.end.isNaN else {
                throw .invalidParameter(
                    name: "interval of '\(interval.label)'", value: "\(interval.start)..<\(interval.end)", reason: "bounds must be numbers")
            }
            let first = firstFrame(atOrAfter: interval.start, frameRate: frameRate, frameCount: frameCount)
            let end = firstFrame(atOrAfter: interval.end, frameRate: frameRate, frameCount: frameCount)
            for frame in first..<max(first, end) { labels[frame] = interval.label }
        }
        return labels
    }

    /// One label per frame for frames `0..<frameCount` from action segments (predicted ones,
    /// from ``SegmentBuilder``, or annotations made into segments).
    /// - Throws: As ``labels(ofIntervals:frameCount:frameRate:)``.
    public static func labels(of segments: [ActionSegment], frameCount: Int, frameRate: Double) throws(PostprocessingError) -> [String?] {
        try labels(ofIntervals: segments.map { ($0.label, $0.start, $0.end) }, frameCount: frameCount, frameRate: frameRate)
    }

    /// The first frame whose instant is at or after `time`, clamped to `0...frameCount`.
    static func firstFrame(atOrAfter time: Double, frameRate: Double, frameCount: Int) -> Int {
        let position = (time * frameRate - 1e-6).rounded(.up)
        if !(position > 0) { return 0 }
        if position >= Double(frameCount) { return frameCount }
        return Int(position)
    }
}
