/// How ``LiveVideoSource`` opens, reads and queues a live stream.
///
/// The defaults favour latency: FFmpeg reads little before decoding starts (``probeSize``,
/// ``analyzeDuration``), does not buffer packets while it probes (`fflags nobuffer`), decodes on
/// one thread (frame-threaded decoding holds back one frame per thread) and only the newest
/// frame waits for the consumer (``capacity`` 1).
///
/// ```swift
/// // A test pattern sent with `ffmpeg -re -f lavfi -i testsrc -f mpegts udp://127.0.0.1:5000`:
/// var options = LiveSourceOptions(inputFormat: "mpegts")
/// // A V4L2 camera at 640x480 and 30 fps:
/// var camera = LiveSourceOptions(inputFormat: "video4linux2")
/// camera.formatOptions = ["video_size": "640x480", "framerate": "30"]
/// ```
public struct LiveSourceOptions: Equatable, Sendable {
    /// FFmpeg's name of the input format (the `ffmpeg` tool's `-f` before `-i`), such as
    /// `mpegts`, `video4linux2`, `rawvideo` or `mjpeg`; nil lets FFmpeg probe the data.
    ///
    /// Needed for a device (`video4linux2` for `/dev/video0`) and for raw video, which has no
    /// header (give its `video_size`, `pixel_format` and `framerate` in ``formatOptions``).
    /// `ffmpeg -demuxers` lists the names.
    public var inputFormat: String?
    /// More options for `avformat_open_input`, as the `ffmpeg` tool takes them before `-i`:
    /// the demuxer's (`video_size`, `framerate`, `pixel_format`), the protocol's (`timeout`,
    /// `buffer_size`, `fifo_size` for UDP) and the format context's (`fflags`). They are set
    /// after this type's own (`fflags`, `probesize`, `analyzeduration`), so they replace them.
    ///
    /// An option that none of them recognizes is an error
    /// (``VideoError/Kind-swift.enum/invalidOption(name:)``), not silently ignored.
    public var formatOptions: [String: String]
    /// The most decoded frames waiting for the consumer (at least 1); when one more arrives, the
    /// oldest waiting frame is dropped.
    ///
    /// With 1, ``LiveVideoSource/next()`` always returns the newest frame, so a consumer that
    /// falls behind sees the present and skips the past. A larger value absorbs short bursts
    /// (fewer drops) at the cost of up to `capacity` frame intervals of extra delay.
    public var capacity: Int
    /// The longest time in seconds without a packet of the video stream once the stream is open
    /// before reading stops with ``VideoError/Kind-swift.enum/streamStalled(seconds:)``
    /// (positive; `.infinity` waits for ever).
    public var stallTimeout: Double
    /// The longest time in seconds that opening may take — connecting, waiting for the first
    /// data (a sender that has not started yet), reading the stream's parameters — before it
    /// stops with ``VideoError/Kind-swift.enum/streamStalled(seconds:)`` (positive; `.infinity`
    /// waits for ever).
    public var openingTimeout: Double
    /// The most bytes FFmpeg reads to recognize the format and its streams (its `probesize`,
    /// at least 32); FFmpeg's default is 5 000 000.
    public var probeSize: Int
    /// The most stream time in seconds FFmpeg reads to learn the streams' parameters (its
    /// `analyzeduration`, in microseconds there; 0 to 3600); 0 keeps FFmpeg's default of 5 s.
    public var analyzeDuration: Double
    /// Whether FFmpeg is told not to buffer packets while it probes the stream (`fflags
    /// nobuffer`): the first frames come sooner, the packets read during probing are not decoded.
    public var lowLatency: Bool
    /// How frames are decoded and converted (size limit, decoding threads), as for a file.
    public var decoding: VideoDecodingOptions

    /// Creates options; every parameter has a latency-minded default.
    /// - Parameters:
    ///   - inputFormat: FFmpeg's input format name, or nil to probe.
    ///   - formatOptions: more `avformat_open_input` options.
    ///   - capacity: the most frames waiting for the consumer (at least 1).
    ///   - stallTimeout: seconds without data that end an open stream.
    ///   - openingTimeout: seconds that opening may take.
    ///   - probeSize: bytes read to recognize the stream (at least 32).
    ///   - analyzeDuration: seconds of stream read to learn its parameters (0: FFmpeg's 5 s).
    ///   - lowLatency: `fflags nobuffer`.
    ///   - decoding: frame size and decoding threads; one thread by default.
    /// Values out of range are reported by ``LiveVideoSource/info()`` and
    /// ``LiveVideoSource/next()`` as ``VideoError/Kind-swift.enum/invalidOption(name:)``.
    public init(
        inputFormat: String? = nil, formatOptions: [String: String] = [:], capacity: Int = 1, stallTimeout: Double = 5,
        openingTimeout: Double = 10, probeSize: Int = 32_768, analyzeDuration: Double = 0.5, lowLatency: Bool = true,
        decoding: VideoDecodingOptions = VideoDecodingOptions(decoderThreadCount: 1)
    ) {
        self.inputFormat = inputFormat
        self.formatOptions = formatOptions
        self.capacity = capacity
        self.stallTimeout = stallTimeout
        self.openingTimeout = openingTimeout
        self.probeSize = probeSize
        self.analyzeDuration = analyzeDuration
        self.lowLatency = lowLatency
        self.decoding = decoding
    }

    /// The first option out of range, with the reason, or nil when all are valid.
    var invalidOption: (name: String, reason: String)? {
        if capacity < 1 { return ("capacity", "must be at least 1, not \(capacity)") }
        if !(stallTimeout > 0) { return ("stallTimeout", "must be a positive number of seconds, not \(stallTimeout)") }
        if !(openingTimeout > 0) { return ("openingTimeout", "must be a positive number of seconds, not \(openingTimeout)") }
        if probeSize < 32 { return ("probeSize", "must be at least 32 bytes, not \(probeSize)") }
        if !(analyzeDuration >= 0 && analyzeDuration <= 3600) {
            return ("analyzeDuration", "must be between 0 and 3600 seconds, not \(analyzeDuration)")
        }
        return nil
    }

    /// The options given to `avformat_open_input`: this type's own, then ``formatOptions``
    /// (sorted by name, so the order is reproducible).
    var ffmpegOptions: [(key: String, value: String)] {
        var options: [(key: String, value: String)] = [
            ("probesize", String(probeSize)),
            ("analyzeduration", String(Int64((analyzeDuration * 1_000_000).rounded()))),
        ]
        if lowLatency { options.append(("fflags", "nobuffer")) }
        options.removeAll { formatOptions[$0.key] != nil }
        options += formatOptions.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        return options
    }
}
