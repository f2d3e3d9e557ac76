internal import CFFmpeg

/// A reusable uncompressed frame (`AVFrame`).
final class Frame {
    /// The frame; valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    /// - Throws: ``FFmpegFailure`` with `AVERROR(ENOMEM)` when the allocation fails.
    init() throws(FFmpegFailure) {
        pointer = try FFmpegCall.nonNull(av_frame_alloc(), "av_frame_alloc")
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Releases the buffers the frame references, keeping the frame for reuse.
    func unreference() { av_frame_unref(pointer) }
}
