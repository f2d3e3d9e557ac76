/// One frame of a live stream, as ``LiveVideoSource/next()`` delivers it: the decoded picture,
/// its time in the stream and the moment it was received.
///
/// The two clocks answer different questions. ``timestamp`` is stream time, for windows and
/// resampling, as for a file. ``receivedAt`` is this machine's monotonic clock, for latency: the
/// delay from a frame's arrival to a prediction made from it is
/// `ContinuousClock.now - frame.receivedAt`, or ``age(at:)`` in seconds. The delay before
/// arrival (capture, encoding, network) is not visible to the receiver.
public struct LiveFrame: Equatable, Sendable {
    /// The upright RGB picture; its ``VideoFrame/timestamp`` is ``timestamp``.
    public var frame: VideoFrame
    /// The frame's number among the frames decoded from the stream, from 0; a gap between
    /// consecutive delivered frames is the number of frames dropped in between.
    public var index: Int
    /// When the frame had been decoded and converted, just before it was queued, on the
    /// monotonic clock.
    public var receivedAt: ContinuousClock.Instant

    /// Creates a frame; ``LiveVideoSource`` makes these.
    public init(frame: VideoFrame, index: Int, receivedAt: ContinuousClock.Instant) {
        self.frame = frame
        self.index = index
        self.receivedAt = receivedAt
    }

    /// The presentation time in seconds from the stream's first decoded frame (which is at 0);
    /// strictly increasing along a stream.
    public var timestamp: Double { frame.timestamp }

    /// Seconds from ``receivedAt`` to `now`: how long the frame has waited (and been worked on).
    public func age(at now: ContinuousClock.Instant = .now) -> Double {
        let elapsed = now - receivedAt
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
