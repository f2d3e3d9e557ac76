internal import CFFmpeg
import Foundation

/// Keeps the warnings and errors FFmpeg logs on the current thread while ``recording(_:)`` runs,
/// so that a ``VideoError`` can carry FFmpeg's own explanation ("moov atom not found", "Packet
/// corrupt (stream = 0, dts = 22)"), which its error codes alone do not give.
///
/// FFmpeg reports details only through `av_log`. The first recorder installs one process-wide
/// log callback (``FFmpegLogRecorder/install()``) that still prints every line FFmpeg's log level
/// lets through to standard error, as FFmpeg's default callback does (without colours), and
/// additionally hands warnings and errors to the recorder of the thread that logged them. Lines
/// logged by FFmpeg's own worker threads (frame-threaded decoding) are printed but not recorded.
///
/// What a recording thread would print is held until its call ends: printed when the call
/// returns, dropped when it throws, since the error then carries FFmpeg's warnings and errors
/// (``lines``) and whoever reports the error prints them once. When the call logged more lines
/// than ``capacity``, the held text is printed anyway, so nothing the error lacks is lost. A call
/// that returns without settling (opening a file, which may yet fail on its first frame) passes
/// its held text and lines on to the next call instead.
///
/// A recorder belongs to one ``VideoDecoder`` and is used only on the thread running it.
final class FFmpegLogRecorder {
    /// The most lines kept; older ones are dropped.
    static let capacity = 8

    /// The recorded lines, oldest first, without FFmpeg's `[context @ address]` prefix but with
    /// the context's name: `avi: Packet corrupt (stream = 0, dts = 22)`.
    private(set) var lines: [String] = []

    /// Runs `body`, recording what FFmpeg logs on this thread meanwhile, after clearing ``lines``
    /// unless the previous call did not settle.
    /// - Parameter settles: Whether a return from `body` settles what it logged (prints the held
    ///   text); false for opening a file, whose lines then go with the next call's error.
    func recording<Result, Failure: Error>(settles: Bool = true, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        Self.install()
        if settled {
            lines.removeAll()
            heldOutput = ""
            droppedLines = false
        }
        partialLine = ""
        let previous = pthread_getspecific(Self.threadKey)
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.threadKey, previous) }
        do {
            let result = try body()
            settled = settles
            if settles { releaseHeldOutput() }
            return result
        } catch {
            settled = true
            if droppedLines { releaseHeldOutput() } else { heldOutput = "" }
            throw error
        }
    }

    /// Whether the last call settled what it logged (see ``recording(settles:_:)``).
    private var settled = true

    /// A file opened and never read: what opening it logged is printed now.
    deinit {
        releaseHeldOutput()
    }

    /// The start of a line FFmpeg is logging in several calls (one ending without a newline).
    private var partialLine = ""
    /// What FFmpeg's log level lets through on this thread during the current call, not yet printed.
    private var heldOutput = ""
    /// Whether the current call logged more lines than ``capacity``.
    private var droppedLines = false

    /// Holds a printable piece of FFmpeg's log until the current call ends.
    fileprivate func hold(_ piece: String) {
        heldOutput += piece
    }

    /// Prints the held pieces to standard error.
    private func releaseHeldOutput() {
        guard !heldOutput.isEmpty else { return }
        FileHandle.standardError.write(Data(heldOutput.utf8))
        heldOutput = ""
    }

    /// Adds a piece of FFmpeg's log; a line is recorded once its newline arrives.
    fileprivate func record(_ piece: String) {
        partialLine += piece
        guard partialLine.hasSuffix("\n") else { return }
        let line = withoutAddress(partialLine.trimmingCharacters(in: .whitespacesAndNewlines))
        partialLine = ""
        if lines.count == Self.capacity {
            lines.removeFirst()
            droppedLines = true
        }
        lines.append(line)
    }

    // MARK: The process-wide callback

    /// The thread-local slot holding the current thread's recorder (unretained: the recorder
    /// outlives every ``recording(_:)`` call that stores it).
    fileprivate static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// Installs the log callback, once per process.
    static func install() { _ = installation }

    private static let installation: Void = av_log_set_callback(ffmpegLogCallback)
}

/// FFmpeg's log callback: prints like `av_log_default_callback` (held back on a recording thread)
/// and records warnings and errors.
private func ffmpegLogCallback(
    context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>?, arguments: CVaListPointer?
) {
    guard let format, let arguments else { return }
    let printed = level <= av_log_get_level()
    let recorded = level <= AV_LOG_WARNING && pthread_getspecific(FFmpegLogRecorder.threadKey) != nil
    guard printed || recorded else { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    logLinePrefix.withLock { printPrefix in
        // Formats the `[context @ address]` prefix only at the start of a line, and notes
        // whether this piece ends one, as av_log_default_callback does.
        _ = av_log_format_line2(context, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
    }
    let piece = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let recorder = pthread_getspecific(FFmpegLogRecorder.threadKey).map {
        Unmanaged<FFmpegLogRecorder>.fromOpaque($0).takeUnretainedValue()
    }
    if printed {
        if let recorder { recorder.hold(piece) } else { FileHandle.standardError.write(Data(piece.utf8)) }
    }
    if recorded { recorder?.record(piece) }
}

/// Whether FFmpeg's next log piece starts a line (1) or continues one (0), shared by all threads
/// like the default callback's.
private let logLinePrefix = LockedValue<Int32>(1)

/// A value behind a lock.
///
/// `@unchecked Sendable`: `value` (itself Sendable) is reached only through `withLock`, with
/// `lock` held.
private final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Turns FFmpeg's `[avi @ 0x55d5…] text` into `avi: text`; other lines are returned unchanged.
private func withoutAddress(_ line: String) -> String {
    guard line.hasPrefix("["), let close = line.range(of: "] "), let at = line.range(of: " @ "),
        at.lowerBound < close.lowerBound
    else { return line }
    let name = line[line.index(after: line.startIndex)..<at.lowerBound]
    return "\(name): \(line[close.upperBound...])"
}
