import Foundation

/// The bounded, thread-safe hand-over between ``FramePipeline``'s decoding thread (the producer)
/// and the thread that reads frames (the consumer).
///
/// Every mutable property is read and written only with `condition` locked, which is what makes
/// the `@unchecked Sendable` conformance sound. Only `Sendable` values (``VideoInfo``,
/// ``VideoFrame``, ``VideoError``) cross between the threads; the decoder itself never leaves
/// the producer thread.
final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    /// Decoded frames not yet taken, oldest first; at most `capacity`.
    private var frames: [VideoFrame] = []
    /// The result of opening the file, once known.
    private var opening: Result<VideoInfo, VideoError>?
    /// Set by the producer when it will add no more frames.
    private var isFinished = false
    /// The error that ended decoding, until the consumer has taken it.
    private var failure: VideoError?
    /// Set by the consumer to make the producer stop.
    private var isCancelled = false
    /// Set when the producer thread has released the decoder and returned.
    private var isProducerDone = false

    /// Creates a queue that holds at most `capacity` frames (at least 1).
    init(capacity: Int) {
        precondition(capacity >= 1, "a frame queue holds at least one frame")
        self.capacity = capacity
    }

    /// Runs `body` with the lock held.
    private func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Producer

    /// Records that the file was opened (or could not be), waking a consumer waiting in
    /// ``waitForInfo()``; only the first call counts.
    func publish(_ result: Result<VideoInfo, VideoError>) {
        locked {
            if opening == nil { opening = result }
            condition.broadcast()
        }
    }

    /// Adds a frame, waiting while the queue is full.
    /// - Returns: false when the consumer cancelled, in which case the frame is discarded and
    ///   the producer should stop.
    func push(_ frame: VideoFrame) -> Bool {
        locked {
            while frames.count >= capacity && !isCancelled { condition.wait() }
            guard !isCancelled else { return false }
            frames.append(frame)
            condition.broadcast()
            return true
        }
    }

    /// Records the end of decoding, cleanly (`error` nil) or with `error`; also resolves the
    /// opening result if the producer never published one.
    func finish(_ error: VideoError?) {
        locked {
            isFinished = true
            failure = error
            if opening == nil, let error { opening = .failure(error) }
            condition.broadcast()
        }
    }

    /// Records that the producer thread has released every FFmpeg resource.
    func producerDidExit() {
        locked {
            isProducerDone = true
            condition.broadcast()
        }
    }

    // MARK: Consumer

    /// Waits until the file is opened and returns its description.
    /// - Throws: the ``VideoError`` that prevented opening it.
    func waitForInfo() throws(VideoError) -> VideoInfo {
        try locked { () throws(VideoError) in
            while opening == nil { condition.wait() }
            switch opening {
            case let .success(info): return info
            case let .failure(error): throw error
            case nil: preconditionFailure("the wait above ends only once opening is set")
            }
        }
    }

    /// Takes the oldest frame, waiting while the queue is empty and decoding goes on.
    /// - Returns: the frame, or nil once every frame has been taken (or after cancellation).
    /// - Throws: the ``VideoError`` that ended decoding, once, after the frames before it.
    func pop() throws(VideoError) -> VideoFrame? {
        try locked { () throws(VideoError) in
            while frames.isEmpty && !isFinished && !isCancelled { condition.wait() }
            if !frames.isEmpty {
                let frame = frames.removeFirst()
                condition.broadcast()
                return frame
            }
            if !isCancelled, let error = failure {
                failure = nil
                throw error
            }
            return nil
        }
    }

    /// Tells the producer to stop, drops the buffered frames and waits until the producer thread
    /// has released the decoder.
    func cancelAndWait() {
        locked {
            isCancelled = true
            frames.removeAll()
            condition.broadcast()
            while !isProducerDone { condition.wait() }
        }
    }
}
