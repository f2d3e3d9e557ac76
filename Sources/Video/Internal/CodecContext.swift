internal import CFFmpeg

/// An open decoder (`AVCodecContext`) for one stream.
final class CodecContext {
    /// The context; valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<AVCodecContext>

    /// Allocates a decoder context for `stream`, copies the stream's codec parameters into it and
    /// opens it.
    /// - Parameters:
    ///   - decoder: the decoder, from `avcodec_find_decoder`.
    ///   - stream: the stream whose packets will be decoded.
    ///   - threadCount: FFmpeg's `threads` option; 0 for automatic.
    /// - Throws: ``FFmpegFailure`` from the allocation, parameter copy or `avcodec_open2`.
    init(decoder: UnsafePointer<AVCodec>, stream: UnsafePointer<AVStream>, threadCount: Int) throws(FFmpegFailure) {
        pointer = try FFmpegCall.nonNull(avcodec_alloc_context3(decoder), "avcodec_alloc_context3")
        // From here on deinit frees the context if a later step throws.
        try FFmpegCall.check(avcodec_parameters_to_context(pointer, stream.pointee.codecpar), "avcodec_parameters_to_context")
        pointer.pointee.pkt_timebase = stream.pointee.time_base
        pointer.pointee.thread_count = Int32(clamping: threadCount)
        try FFmpegCall.check(avcodec_open2(pointer, decoder, nil), "avcodec_open2")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Sends one packet to the decoder, or nil to start draining at the end of the stream
    /// (`avcodec_send_packet`).
    /// - Throws: ``FFmpegFailure`` when the decoder rejects the data (`AVERROR_INVALIDDATA` for a
    ///   damaged packet, for example).
    func send(_ packet: Packet?) throws(FFmpegFailure) {
        try FFmpegCall.check(avcodec_send_packet(pointer, packet?.pointer), "avcodec_send_packet")
    }

    /// What ``receive(into:)`` found.
    enum Output {
        /// A frame was written.
        case frame
        /// The decoder needs another packet first.
        case needsInput
        /// The decoder is drained: every frame has been delivered.
        case endOfStream
    }

    /// Takes the next decoded frame in display order, if one is ready (`avcodec_receive_frame`).
    /// - Throws: ``FFmpegFailure`` for a decoding error.
    func receive(into frame: Frame) throws(FFmpegFailure) -> Output {
        let code = avcodec_receive_frame(pointer, frame.pointer)
        if code == cffmpeg_averror_eagain() { return .needsInput }
        if code == cffmpeg_averror_eof() { return .endOfStream }
        try FFmpegCall.check(code, "avcodec_receive_frame")
        return .frame
    }
}
