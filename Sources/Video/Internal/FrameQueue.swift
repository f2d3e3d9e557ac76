import Foundation

/// The bounded, thread-safe hand-over between a decoding thread (the producer) and the thread
/// that reads frames (the consumer), shared by ``FramePipeline`` and ``LiveVideoSource``.
///
/// What a full queue does is its ``OverflowPolicy``: ``FramePipeline`` makes the producer wait
/// (every frame of a file is delivered), ``LiveVideoSource`` drops the oldest waiting frame (the
/// producer must keep up with a stream that does not wait).
///
/// Every mutable property is read and written only with `condition` locked, which is what makes
/// the `@unchecked Sendable` conformance sound. Only `Sendable` values (``VideoInfo``, the
/// elements, ``VideoError``) cross between the threads; the decoder itself never leaves the
/// producer thread.
final class FrameQueue<Element: Sendable>: @unchecked Sendable {
    /// What ``push(_:)`` does when the queue already holds `capacity` elements.
    enum OverflowPolicy {
        /// The producer waits until the consumer has taken one.
        case wait
        /// The oldest waiting element is discarded and counted in ``Counts/dropped``.
        case dropOldest
    }

    /// How many elements went through the queue; `pushed == popped + dropped + waiting`.
    struct Counts: Equatable {
        /// Elements the producer added.
        var pushed = 0
        /// Elements the consumer took.
        var popped = 0
        /// Elements discarded unread: pushed out by newer ones (``OverflowPolicy/dropOldest``)
        /// or left waiting at cancellation.
        var dropped = 0
        /// Elements waiting now.
        var waiting = 0
        /// What the producer reports it discarded before queueing (``recordSkipped(_:)``).
        var skipped = 0
    }

    private let condition = NSCondition()
    private let capacity: Int
    private let overflow: OverflowPolicy
    /// Elements not yet taken, oldest first; at most `capacity`.
    private var elements: [Element] = []
    private var counts = Counts()
    /// The result of opening the source, once known.
    private var opening: Result<VideoInfo, VideoError>?
    /// Set by the producer when it will add no more elements.
    private var isFinished = false
    /// The error that ended decoding, until the consumer has taken it.
    private var failure: VideoError?
    /// Set by the consumer to make the producer stop.
    private var isCancelled = false
    /// Set when the producer thread has released the decoder and returned.
    private var isProducerDone = false

    /// Creates a queue that holds at most `capacity` elements (at least 1).
    init(capacity: Int, overflow: OverflowPolicy = .wait) {
        precondition(capacity >= 1, "a frame queue holds at least one frame")
        self.capacity = capacity
        self.overflow = overflow
    }

    /// Runs `body` with the lock held.
    private func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// A snapshot of the counts, taken with the lock held.
    var snapshot: Counts {
        locked {
            var counts = counts
            counts.waiting = elements.count
            return counts
        }
    }

    // MARK: Producer

    /// Records that the source was opened (or could not be), waking a consumer waiting in
    /// ``waitForInfo()``; only the first call counts.
    func publish(_ result: Result<VideoInfo, VideoError>) {
        locked {
            if opening == nil { opening = result }
            condition.broadcast()
        }
    }

    /// Adds an element; when the queue is full, waits or drops the oldest, by the overflow policy.
    /// - Returns: false when the consumer cancelled, in which case the element is discarded and
    ///   the producer should stop.
    func push(_ element: Element) -> Bool {
        locked {
            if overflow == .wait {
                while elements.count >= capacity && !isCancelled { condition.wait() }
            }
            guard !isCancelled else { return false }
            if elements.count >= capacity {
                elements.removeFirst()
                counts.dropped += 1
            }
            elements.append(element)
            counts.pushed += 1
            condition.broadcast()
            return true
        }
    }

    /// Sets the number of elements the producer has discarded before queueing so far.
    func recordSkipped(_ total: Int) {
        locked { counts.skipped = total }
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

    /// Waits until the source is opened and returns its description.
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

    /// Takes the oldest element, waiting while the queue is empty and decoding goes on.
    /// - Returns: the element, or nil once every element has been taken (or after cancellation).
    /// - Throws: the ``VideoError`` that ended decoding, once, after the elements before it.
    func pop() throws(VideoError) -> Element? {
        try locked { () throws(VideoError) in
            while elements.isEmpty && !isFinished && !isCancelled { condition.wait() }
            if !elements.isEmpty {
                let element = elements.removeFirst()
                counts.popped += 1
                condition.broadcast()
                return element
            }
            if !isCancelled, let error = failure {
                failure = nil
                throw error
            }
            return nil
        }
    }

    /// Tells the producer to stop, drops the waiting elements (counting them as dropped) and
    /// waits until the producer thread has released the decoder.
    func cancelAndWait() {
        locked {
            isCancelled = true
            counts.dropped += elements.count
            elements.removeAll()
            condition.broadcast()
            while !isProducerDone { condition.wait() }
        }
    }
}
