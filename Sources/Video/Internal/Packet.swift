internal import CFFmpeg

/// A reusable compressed packet (`AVPacket`).
final class Packet {
    /// The packet; valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    /// - Throws: ``FFmpegFailure`` with `AVERROR(ENOMEM)` when the allocation fails.
    init() throws(FFmpegFailure) {
        pointer = try FFmpegCall.nonNull(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Releases the data the packet references, keeping the packet for reuse.
    func unreference() { av_packet_unref(pointer) }
}
