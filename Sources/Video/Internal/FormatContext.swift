internal import CFFmpeg

/// An open demuxer (`AVFormatContext`): the owner of the file handle and container state.
final class FormatContext {
    /// The context; valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens the local file at `path` with FFmpeg's format probing (`avformat_open_input`) and
    /// reads enough of it to know its streams (`avformat_find_stream_info`).
    ///
    /// The path is always read as a local file: it is given to FFmpeg as a `file:` URL (so that a
    /// name containing a colon is not taken for a protocol), and only the `file` protocol is
    /// allowed (`protocol_whitelist`), so that a playlist or concat script cannot make FFmpeg
    /// open network URLs or other protocols.
    /// - Throws: ``FFmpegFailure`` from whichever call failed.
    init(openingPath path: String) throws(FFmpegFailure) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        let options = try OptionDictionary(["protocol_whitelist": "file"])
        // On failure avformat_open_input frees the context itself and leaves it nil.
        try FFmpegCall.check(
            options.withUnsafeMutablePointer { avformat_open_input(&context, "file:" + path, nil, $0) },
            "avformat_open_input")
        pointer = try FFmpegCall.nonNull(context, "avformat_open_input")
        // From here on deinit closes the input if a later step throws.
        try FFmpegCall.check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info")
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// The stream at `index`, or nil when out of range.
    func stream(at index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(pointer.pointee.nb_streams) else { return nil }
        return pointer.pointee.streams[index]
    }

    /// The index of the stream FFmpeg considers the main video stream (`av_find_best_stream`).
    /// - Throws: ``FFmpegFailure`` with `AVERROR_STREAM_NOT_FOUND` when there is none.
    func bestVideoStreamIndex() throws(FFmpegFailure) -> Int {
        Int(try FFmpegCall.check(av_find_best_stream(pointer, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0), "av_find_best_stream"))
    }

    /// What ``readPacket(into:)`` found.
    enum ReadResult {
        /// A packet was read.
        case packet
        /// The input ended.
        case endOfFile
        /// A non-blocking demuxer (`AVFMT_FLAG_NONBLOCK`, a capture device) has no packet yet.
        case tryAgain
    }

    /// Reads the next packet of any stream into `packet` (`av_read_frame`).
    /// - Returns: whether a packet was read, the input ended, or a non-blocking demuxer has none yet.
    /// - Throws: ``FFmpegFailure`` for any other outcome (an I/O error, damaged container data,
    ///   `AVERROR_EXIT` when an interrupt callback stopped the read).
    func readPacket(into packet: Packet) throws(FFmpegFailure) -> ReadResult {
        let code = av_read_frame(pointer, packet.pointer)
        if code == cffmpeg_averror_eof() { return .endOfFile }
        if code == cffmpeg_averror_eagain() { return .tryAgain }
        try FFmpegCall.check(code, "av_read_frame")
        return .packet
    }

    /// The container's duration in seconds, or nil when unknown.
    var duration: Double? {
        let duration = pointer.pointee.duration
        guard duration != cffmpeg_nopts_value(), duration > 0 else { return nil }
        return Double(duration) / Double(AV_TIME_BASE)
    }
}
