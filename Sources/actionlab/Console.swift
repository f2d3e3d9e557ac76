import AtomicFiles
import Foundation

/// Output conventions of the command-line tool: results on standard output, progress and
/// errors on standard error, so `actionlab run ... > report-path.txt` captures only the result.
enum Console {
    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A progress line on standard error, prefixed with the time since the process started.
    static func progress(_ line: String) {
        error(progressLine(line))
    }

    /// `line` with the time since the process started in front, as ``progress(_:)`` writes it.
    static func progressLine(_ line: String) -> String {
        String(format: "[%6.1fs] ", Date().timeIntervalSince(started)) + line
    }

    /// A line another `actionlab` process wrote with ``progressLine(_:)`` (a sweep worker's),
    /// its elapsed time replaced by this process's; other lines unchanged.
    static func restamped(_ line: String) -> String {
        // "[" then the time right-aligned in 6 characters (more for long runs), "s] ".
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return line }
        let stamp = line[line.index(after: line.startIndex)..<close]
        guard stamp.hasSuffix("s"), Double(stamp.dropLast().trimmingCharacters(in: .whitespaces)) != nil,
              line[close...].hasPrefix("] ") else { return line }
        return progressLine(String(line[line.index(close, offsetBy: 2)...]))
    }

    /// Seconds as `45s`, `3m 05s` or `2h 07m`, for elapsed and remaining times.
    static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm %02ds", total / 60, total % 60) }
        return String(format: "%dh %02dm", total / 3600, total % 3600 / 60)
    }

    /// When the clock of progress lines started: set once, on first use (``markStart()``).
    private static let started = Date()

    /// Starts the clock of progress lines (the first read of `started` sets it); called first
    /// thing in `main`.
    static func markStart() { _ = started }

    /// This executable (`/proc/self/exe`), which sweeps start as worker processes.
    static var executable: URL? {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
    }

    /// The line written to standard error on SIGINT or SIGTERM, prepared beforehand (a signal
    /// handler may only call async-signal-safe functions such as `write(2)`); nil: none.
    nonisolated(unsafe) private static var interruptionLine: UnsafeMutablePointer<CChar>?

    /// Says `line` on standard error when the process is interrupted (Ctrl-C, SIGINT) or
    /// terminated (SIGTERM), then ends by that signal as it would have (status 130 or 143 in a
    /// shell): the run's state is on disk, the line says how to go on. A signal the process
    /// started with ignored (a background job of a non-interactive shell ignores SIGINT) stays
    /// ignored.
    static func onInterruption(say line: String) {
        let previous = interruptionLine
        interruptionLine = strdup("\n" + line + "\n")
        free(previous)
        for signalNumber in [SIGINT, SIGTERM] {
            let old = signal(signalNumber) { received in
                if let line = Console.interruptionLine { _ = write(2, line, strlen(line)) }
                signal(received, SIG_DFL)
                raise(received)
            }
            if let old, unsafeBitCast(old, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(signalNumber, SIG_IGN) }
        }
        // A mask inherited blocked (a parent that spawned this process from a thread blocking
        // them) would hold the signals pending until the run ends.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Runs a subcommand body, turning errors into messages and exit statuses: 2 for a
    /// `UsageError` (with a pointer to the command's help), 1 for any other error.
    static func exitStatus(_ command: CommandSpecification, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return 0
        } catch let usage as UsageError {
            error("error: \(usage.description)")
            error("run 'actionlab \(command.name) --help' for usage")
            return 2
        } catch {
            Console.error("error: \(FileErrorReason.message(error))")
            return 1
        }
    }

    /// ``exitStatus(_:_:)`` for a command that works through several inputs and fails one
    /// without stopping: `body` returns whether any input failed, after the others were done and
    /// the failures reported, which makes the status 1 (an error still gives 1, wrong usage 2).
    static func exitStatus(overInputs command: CommandSpecification, _ body: () throws -> Bool) -> Int32 {
        var failed = false
        let status = exitStatus(command) { failed = try body() }
        return status == 0 && failed ? 1 : status
    }
}
