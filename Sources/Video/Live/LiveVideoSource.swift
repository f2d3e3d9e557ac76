import Foundation

/// Reads a live video stream in real time — a UDP, RTP or HTTP stream, a named pipe, a V4L2
/// camera — and hands the consumer the newest decoded frame, dropping older ones it has not read.
///
/// A thread of its own opens the stream and decodes frames as they arrive, never waiting for
/// the consumer: frames go into a queue of ``LiveSourceOptions/capacity`` frames (1 by
/// default), and when a frame arrives at a full queue the oldest waiting one is dropped. A
/// consumer slower than the stream (pose estimation that falls behind the camera) therefore
/// always works on a recent frame, as a live app must, and ``statistics`` counts what it
/// skipped. Each ``LiveFrame`` carries its stream time in seconds (``LiveFrame/timestamp``,
/// from the first decoded frame) and the monotonic time it was received
/// (``LiveFrame/receivedAt``), from which the caller measures latency.
///
/// Frames are decoded and converted exactly as ``VideoDecoder`` does it for files (upright
/// RGB24, optionally downscaled, timestamps strictly increasing), except that damage — a lost
/// network packet, a stream joined between key frames — skips the damaged frames instead of
/// failing the stream (``LiveSourceStatistics/skipped`` counts them).
///
/// The stream ends when its sender ends it (a pipe's writer closes it, an HTTP or TCP
/// connection ends): ``next()`` returns nil. A stream that stops sending without ending (UDP
/// has no end; a writer that hangs) ends with
/// ``VideoError/Kind-swift.enum/streamStalled(seconds:)`` after
/// ``LiveSourceOptions/stallTimeout`` seconds without a video packet.
///
/// Read it from one thread: ``info()`` if wanted, then ``next()`` until it returns nil;
/// ``close()`` (or `deinit`) stops reading and waits until the stream is closed.
///
/// ```swift
/// let source = LiveVideoSource(url: "udp://127.0.0.1:5000", options: LiveSourceOptions(inputFormat: "mpegts"))
/// while let frame = try source.next() {
///     let people = try estimator.estimatePeople(in: image(of: frame.frame), at: frame.timestamp)
///     latencies.append(frame.age())   // seconds from arrival to this point
/// }
/// print(source.statistics.framesDropped)
/// ```
///
/// ## Sources
/// - Network: any URL FFmpeg's protocols open (`udp://`, `rtp://`, `tcp://`, `http://`,
///   `rtmp://`, `srt://`). FFmpeg's protocol whitelist is not restricted: the caller chose the
///   URL. An RTP session described by an SDP file is opened through the file's path with
///   ``LiveSourceOptions/formatOptions`` `["protocol_whitelist": "file,udp,rtp"]`.
/// - Named pipe: a path to a FIFO (made with `mkfifo`). It is opened without blocking, so a
///   writer that has not started yet is waited for (up to ``LiveSourceOptions/openingTimeout``)
///   and a writer that hangs is reported as a stall; the stream ends when every writer has
///   closed the pipe.
/// - Device: a V4L2 camera, `/dev/video0` with ``LiveSourceOptions/inputFormat``
///   `video4linux2`, read without blocking (`AVFMT_FLAG_NONBLOCK`, polled every 5 ms, as the
///   `ffmpeg` tool reads devices).
/// - A regular file also works, but is read as fast as it decodes, not in real time.
public final class LiveVideoSource {
    /// The stream, as given: a URL, a named pipe's path or a device.
    public let url: String
    /// How the stream is opened, read and queued.
    public let options: LiveSourceOptions
    private let queue: FrameQueue<LiveFrame>
    private let interrupt: IOInterrupt
    private var isClosed = false

    /// Starts opening and reading `url` on a new thread.
    ///
    /// Never throws: a stream that cannot be opened reports its ``VideoError`` from ``info()``
    /// and ``next()``.
    /// - Parameters:
    ///   - url: what FFmpeg opens (`udp://127.0.0.1:5000`, `http://camera.local/stream.ts`,
    ///     `/dev/video0`), or the path of a named pipe.
    ///   - options: input format, FFmpeg options, queue capacity, timeouts in seconds, decoding.
    public init(url: String, options: LiveSourceOptions = LiveSourceOptions()) {
        self.url = url
        self.options = options
        // An out-of-range capacity is reported by the reader as invalidOption.
        let queue = FrameQueue<LiveFrame>(capacity: max(1, options.capacity), overflow: .dropOldest)
        let interrupt = IOInterrupt(timeout: options.openingTimeout)
        self.queue = queue
        self.interrupt = interrupt
        let reader = LiveStreamReader(url: url, options: options, interrupt: interrupt, queue: queue)
        let thread = Thread {
            queue.finish(reader.run())
            queue.producerDidExit()
        }
        thread.name = "ActionLab live video"
        thread.start()
    }

    deinit { close() }

    /// What the stream's parameters say about its video, waiting until the stream is open.
    ///
    /// For a live stream the duration and frame count are usually unknown (nil), and the frame
    /// rate is the stream's nominal one, if it states any.
    /// - Throws: the ``VideoError`` that prevented opening, naming ``url``:
    ///   ``VideoError/Kind-swift.enum/streamUnavailable`` with FFmpeg's message (connection
    ///   refused, protocol not found, device busy);
    ///   ``VideoError/Kind-swift.enum/fileNotFound`` for a missing pipe or device;
    ///   ``VideoError/Kind-swift.enum/unrecognizedFormat`` when FFmpeg cannot recognize the data;
    ///   ``VideoError/Kind-swift.enum/streamStalled(seconds:)`` when opening took longer than
    ///   ``LiveSourceOptions/openingTimeout``;
    ///   ``VideoError/Kind-swift.enum/invalidOption(name:)`` for an unknown input format, an
    ///   FFmpeg option no part of FFmpeg recognized, or an option value out of range;
    ///   ``VideoError/Kind-swift.enum/noVideoStream`` and
    ///   ``VideoError/Kind-swift.enum/decoderMissing(codec:)`` as for files.
    public func info() throws(VideoError) -> VideoInfo {
        try queue.waitForInfo()
    }

    /// The oldest waiting frame — with the default capacity of 1, the newest decoded frame —
    /// waiting for the next one to arrive if none is waiting.
    /// - Returns: the frame, or nil after the end of the stream (and after ``close()``).
    /// - Throws: once, after the frames received before it, then nil follows: the opening
    ///   errors of ``info()``;
    ///   ``VideoError/Kind-swift.enum/streamStalled(seconds:)`` when no video packet arrived for
    ///   ``LiveSourceOptions/stallTimeout`` seconds;
    ///   ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` when reading failed (a
    ///   connection reset) or the stream held no decodable frame;
    ///   ``VideoError/Kind-swift.enum/libraryCall(function:)`` when FFmpeg failed otherwise (out
    ///   of memory).
    public func next() throws(VideoError) -> LiveFrame? {
        guard !isClosed else { return nil }
        return try queue.pop()
    }

    /// The frames decoded, delivered, dropped and waiting so far; safe to read while the
    /// stream is being read.
    public var statistics: LiveSourceStatistics {
        let counts = queue.snapshot
        return LiveSourceStatistics(
            framesDecoded: counts.pushed, framesDelivered: counts.popped, framesDropped: counts.dropped,
            framesWaiting: counts.waiting, skipped: counts.skipped)
    }

    /// Stops reading, discards the waiting frames (counted as dropped) and waits until the
    /// reading thread has closed the stream, which takes at most about 0.1 s. Safe to call more
    /// than once.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        interrupt.cancel()
        queue.cancelAndWait()
    }
}
