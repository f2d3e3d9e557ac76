internal import CFFmpeg

/// An open demuxer (`AVFormatContext`): the owner of the file handle and container state.
final class FormatContext {
    /// The context; valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The interrupt callback's state, which must outlive the context; nil for files.
    private let interrupt: IOInterrupt?
    /// The named pipe FFmpeg reads through `pipe:N`, closed after the context; nil otherwise.
    private let pipe: NamedPipeInput?

    /// Opens the local file at `path` with FFmpeg's format probing (`avformat_open_input`) and
    /// reads enough of it to know its streams (`avformat_find_stream_info`).
    ///
    /// The path is always read as a local file: it is given to FFmpeg as a `file:` URL (so that a
    /// name containing a colon is not taken for a protocol), and only the `file` protocol is
    /// allowed (`protocol_whitelist`), so that a playlist or concat script cannot make FFmpeg
    /// open network URLs or other protocols.
    /// - Throws: ``FFmpegFailure`` from whichever call failed.
    init(openingPath path: String) throws(FFmpegFailure) {
        interrupt = nil
        pipe = nil
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

    /// Opens a live stream (any URL or device FFmpeg can open, not only files) for reading in
    /// real time, and reads enough of it to know its streams.
    ///
    /// The context is non-blocking (`AVFMT_FLAG_NONBLOCK`, as the `ffmpeg` tool opens its
    /// inputs), so a capture device returns ``ReadResult/tryAgain`` instead of waiting; network
    /// and pipe reads wait, but give up with `AVERROR_EXIT` as soon as `interrupt` says so.
    /// - Parameters:
    ///   - url: what `avformat_open_input` opens: a URL (`udp://…`), a device or a path.
    ///   - format: the input format, or nil to let FFmpeg probe.
    ///   - options: demuxer, protocol and context options; FFmpeg removes those it used.
    ///   - interrupt: consulted by FFmpeg during blocking I/O; kept alive with the context.
    ///   - pipe: the named pipe that `url` (`pipe:N`) reads, if any; closed after the context.
    /// - Throws: ``FFmpegFailure`` from whichever call failed.
    init(
        openingStream url: String, format: UnsafePointer<AVInputFormat>?, options: OptionDictionary,
        interrupt: IOInterrupt, pipe: NamedPipeInput?
    ) throws(FFmpegFailure) {
        let allocated = try FFmpegCall.nonNull(avformat_alloc_context(), "avformat_alloc_context")
        allocated.pointee.interrupt_callback = interrupt.callback
        allocated.pointee.flags |= AVFMT_FLAG_NONBLOCK
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure avformat_open_input frees the context itself and leaves it nil.
        try FFmpegCall.check(
            options.withUnsafeMutablePointer { avformat_open_input(&context, url, format, $0) }, "avformat_open_input")
        self.interrupt = interrupt
        self.pipe = pipe
        pointer = try FFmpegCall.nonNull(context, "avformat_open_input")
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
