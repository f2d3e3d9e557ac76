internal import CFFmpeg
import Foundation

/// Tells FFmpeg to give up a blocking read (its `AVIOInterruptCB`) when a live source is closed
/// or when no data arrived before a deadline: the stall clock of ``LiveVideoSource``.
///
/// FFmpeg calls the callback from the thread doing the I/O, between the short waits of its
/// network and pipe protocols (about every 100 ms for UDP, every millisecond for a
/// non-blocking pipe); the blocked call then returns `AVERROR_EXIT` or ends the input. Once the
/// callback has said stop, it keeps saying so, and ``reason`` tells why, so the reading thread
/// can tell a stall or a cancellation from a real end of stream or error.
///
/// `@unchecked Sendable`: every mutable property is read and written with `lock` held; the
/// consumer thread calls ``cancel()``, the reading thread everything else.
final class IOInterrupt: @unchecked Sendable {
    /// Why reading was interrupted.
    enum Reason: Equatable, Sendable {
        /// The source was closed.
        case cancelled
        /// No data arrived for `seconds` seconds (the timeout running at the time).
        case timedOut(seconds: Double)
    }

    private let lock = NSLock()
    private var isCancelled = false
    private var timeout: Double
    /// When reading is interrupted; nil for an infinite timeout.
    private var deadline: ContinuousClock.Instant?
    private var fired: Reason?

    /// Starts the clock: reading is interrupted if ``restart(timeout:)`` is not called within
    /// `timeout` seconds (infinity, NaN or 10⁹ s and more never interrupt).
    init(timeout: Double) {
        self.timeout = timeout
        deadline = Self.deadline(after: timeout)
    }

    /// The instant `timeout` seconds from now, or nil for a timeout too long to count (which
    /// `Duration` could not hold).
    private static func deadline(after timeout: Double) -> ContinuousClock.Instant? {
        guard timeout.isFinite, timeout < 1e9 else { return nil }
        return ContinuousClock.now + .seconds(timeout)
    }

    /// Runs `body` with the lock held.
    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Restarts the clock with `timeout` seconds (data has arrived); an interruption already
    /// made stands.
    func restart(timeout: Double) {
        let deadline = Self.deadline(after: timeout)
        locked {
            self.timeout = timeout
            self.deadline = deadline
        }
    }

    /// Interrupts reading now and from now on.
    func cancel() {
        locked { isCancelled = true }
    }

    /// Why reading was interrupted, or nil while it has not been.
    var reason: Reason? { locked { fired } }

    /// Whether reading must stop; the first true answer fixes ``reason``.
    func shouldInterrupt() -> Bool {
        let now = ContinuousClock.now
        return locked {
            if fired == nil {
                if isCancelled {
                    fired = .cancelled
                } else if let deadline, now >= deadline {
                    fired = .timedOut(seconds: timeout)
                }
            }
            return fired != nil
        }
    }

    /// The callback to store in `AVFormatContext.interrupt_callback`; valid while this object lives.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: ioInterruptCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// FFmpeg's interrupt callback: non-zero asks the blocked call to return.
private func ioInterruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<IOInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
}
