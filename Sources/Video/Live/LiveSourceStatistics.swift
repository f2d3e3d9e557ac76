/// How many frames of a live stream were decoded, delivered and dropped so far.
///
/// At any moment `framesDecoded == framesDelivered + framesDropped + framesWaiting`; after
/// ``LiveVideoSource/close()`` nothing waits. The share of frames a slow consumer skipped is
/// `framesDropped / framesDecoded`.
public struct LiveSourceStatistics: Equatable, Sendable {
    /// Frames decoded, converted to RGB and queued for the consumer.
    public var framesDecoded: Int
    /// Frames returned by ``LiveVideoSource/next()``.
    public var framesDelivered: Int
    /// Frames discarded unread: pushed out of the full queue by a newer frame, or still waiting
    /// when the source was closed.
    public var framesDropped: Int
    /// Frames queued and not yet read (at most ``LiveSourceOptions/capacity``).
    public var framesWaiting: Int
    /// Damaged packets and frames skipped before decoding finished (lost network packets, a
    /// stream joined between key frames), plus frames whose timestamp was not after the
    /// previous frame's; never queued, so not part of ``framesDecoded``.
    public var skipped: Int

    /// Creates statistics; ``LiveVideoSource/statistics`` reports them.
    public init(framesDecoded: Int, framesDelivered: Int, framesDropped: Int, framesWaiting: Int, skipped: Int) {
        self.framesDecoded = framesDecoded
        self.framesDelivered = framesDelivered
        self.framesDropped = framesDropped
        self.framesWaiting = framesWaiting
        self.skipped = skipped
    }
}
