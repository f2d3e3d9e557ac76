import Foundation

/// Decodes a video on a thread of its own into a bounded queue, so that the next stage (pose
/// estimation) works on one frame while the following ones are decoded.
///
/// The pipeline opens and decodes the file with a ``VideoDecoder`` that lives entirely on its
/// decoding thread; only finished ``VideoFrame`` values (and ``VideoInfo``, ``VideoError``) are
/// handed over, through a queue of at most ``capacity`` frames. When the consumer is slower, the
/// decoding thread waits, so memory stays bounded by `capacity` frames whatever the length of the
/// video.
///
/// Read it from one thread: ``info()`` then ``next()`` until it returns nil. Frames, their
/// order, timestamps and errors are exactly those of ``VideoDecoder/next()``. ``close()`` (or
/// `deinit`) stops decoding early and waits until the file is closed.
///
/// ```swift
/// let pipeline = FramePipeline(url: video, options: VideoDecodingOptions(maximumDimension: 512))
/// while let frame = try pipeline.next() {
///     try estimator.detect(frame)   // runs while the next frames decode
/// }
/// ```
public final class FramePipeline {
    /// The file being decoded.
    public let url: URL
    /// The largest number of decoded frames waiting to be read.
    public let capacity: Int
    private let queue: FrameQueue<VideoFrame>
    private var isClosed = false

    /// Starts decoding `url` on a new thread.
    ///
    /// Never throws: a file that cannot be opened reports its ``VideoError`` from ``info()`` and
    /// ``next()``.
    /// - Parameters:
    ///   - url: a video or image file URL.
    ///   - options: how frames are delivered.
    ///   - capacity: the most decoded frames held before decoding waits (at least 1). Each
    ///     frame holds width × height × 3 bytes.
    public init(url: URL, options: VideoDecodingOptions = VideoDecodingOptions(), capacity: Int = 8) {
        precondition(capacity >= 1, "capacity must be at least 1")
        self.url = url
        self.capacity = capacity
        let queue = FrameQueue<VideoFrame>(capacity: capacity)
        self.queue = queue
        let thread = Thread {
            queue.finish(Self.decode(url, options: options, into: queue))
            queue.producerDidExit()
        }
        thread.name = "ActionLab video decoding"
        thread.start()
    }

    deinit { close() }

    /// What the file's headers say, waiting until the decoding thread has opened it.
    /// - Throws: the ``VideoError`` that ``VideoDecoder/init(url:options:)`` threw.
    public func info() throws(VideoError) -> VideoInfo {
        try queue.waitForInfo()
    }

    /// The next frame in display order, waiting for the decoding thread if none is ready.
    /// - Returns: the frame, or nil after the last one and after ``close()``.
    /// - Throws: the ``VideoError`` that stopped decoding (opening failed, or
    ///   ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` after the frames before the
    ///   damage), once; nil follows.
    public func next() throws(VideoError) -> VideoFrame? {
        guard !isClosed else { return nil }
        return try queue.pop()
    }

    /// Stops decoding, discards frames not yet read and waits until the decoding thread has
    /// closed the file. Safe to call more than once.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        queue.cancelAndWait()
    }

    /// The decoding thread's work: opens the file and pushes frames until the end, an error or
    /// cancellation. The decoder is released when this returns.
    /// - Returns: the error that ended decoding, or nil.
    private static func decode(_ url: URL, options: VideoDecodingOptions, into queue: FrameQueue<VideoFrame>) -> VideoError? {
        do throws(VideoError) {
            let decoder = try VideoDecoder(url: url, options: options)
            queue.publish(.success(decoder.info))
            while let frame = try decoder.next() {
                guard queue.push(frame) else { break }
            }
            return nil
        } catch {
            return error
        }
    }
}
