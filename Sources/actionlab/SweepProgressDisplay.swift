import Foundation
import Sweeps

/// Shows `actionlab run`'s progress on standard error.
///
/// On a terminal, below the log lines, a block redrawn in place (at most ten times a second):
/// trials done of the total with elapsed time and an estimate of the time left, then one line
/// per running trial with its epoch, a bar within the epoch and the last validation accuracy.
/// Otherwise (a log file, CI) plain lines only: the log lines, and after each finished trial
/// how many are done, the elapsed time and the estimate. Worker processes' lines pass through
/// as they wrote them, but with this process's elapsed time in place of the worker's (whose clock
/// started later, so the log's times went backwards).
///
/// The estimate: the unfinished share of the sweep's trial-work (running trials count by the
/// fraction of their epochs done) times the mean duration of the trials finished here (or, before
/// any finished, the running trials' projected durations), divided by the trials running at once.
final class SweepProgressDisplay: @unchecked Sendable {
    private struct Running {
        var id: String
        var seed: Int
        var epochs: Int
        var epoch = 1
        var batch = 0
        var batches = 0
        var validationAccuracy: Double?
        var started = Date()

        /// Share of the trial done: finished epochs plus the current one's batches.
        var fraction: Double {
            let inEpoch = batches > 0 ? Double(batch) / Double(batches) : 0
            return min(1, (Double(epoch - 1) + inEpoch) / Double(max(epochs, 1)))
        }
    }

    private let lock = NSLock()
    private let isTerminal: Bool
    private let write: (String) -> Void
    private let columns: () -> Int
    private let started = Date()
    private var total = 0
    private var finished = 0
    private var jobs = 1
    private var running: [Int: Running] = [:]
    private var durations: [Double] = []
    private var drawnLines = 0
    private var lastDraw = Date.distantPast

    /// Creates a display writing to standard error, in terminal mode if standard error is one.
    /// - Parameters:
    ///   - isTerminal: Overrides the check of standard error (tests).
    ///   - write: Where the text goes (default standard error).
    init(isTerminal: Bool = isatty(STDERR_FILENO) == 1, write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.isTerminal = isTerminal
        self.write = write
        self.columns = {
            var size = winsize()
            return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 100
        }
    }

    /// The observer to give the sweep runner.
    var observer: SweepObserver {
        SweepObserver(
            began: { [self] in begin(total: $0, finished: $1, jobs: $2) }, progress: { [self] in handle($0) },
            workerLine: { [self] in printLine(Console.restamped($0)) })
    }

    /// The sweep about to run: `total` trials of which `finished` are done, `jobs` at once.
    func begin(total: Int, finished: Int, jobs: Int) {
        lock.withLock {
            self.total = total
            self.finished = finished
            self.jobs = max(1, jobs)
            if isTerminal && total > 0 { write(clearBlock() + block()) }
        }
    }

    /// A log line of this process, with the elapsed-time prefix of every progress line.
    func log(_ line: String) {
        printLine(Console.progressLine(line))
    }

    /// Removes the block at the end of the run.
    func end() {
        lock.withLock {
            guard isTerminal else { return }
            write(clearBlock())
        }
    }

    func handle(_ event: TrialProgress) {
        lock.withLock {
            switch event {
            case let .started(trial, id, seed, _, epochs):
                running[trial] = Running(id: id, seed: seed, epochs: epochs)
            case let .batch(trial, epoch, done, batches):
                running[trial]?.epoch = epoch
                running[trial]?.batch = done
                running[trial]?.batches = batches
            case let .epoch(trial, epoch, _, _, validationAccuracy):
                running[trial]?.epoch = epoch + 1
                running[trial]?.batch = 0
                if let validationAccuracy { running[trial]?.validationAccuracy = validationAccuracy }
            case let .finished(trial, succeeded):
                let run = running.removeValue(forKey: trial)
                guard succeeded else { break }
                finished += 1
                if let run { durations.append(Date().timeIntervalSince(run.started)) }
                if !isTerminal { write(Console.progressLine(statusLine) + "\n") }
            }
            if isTerminal, total > 0, Date().timeIntervalSince(lastDraw) >= 0.1 || { if case .batch = event { false } else { true } }() {
                write(clearBlock() + block())
            }
        }
    }

    /// `k/N trials done, r running · elapsed … · about … left`.
    var statusLine: String {
        var line = "\(finished)/\(total) trials done"
        if !running.isEmpty { line += ", \(running.count) running" }
        line += " · elapsed \(Console.duration(Date().timeIntervalSince(started)))"
        if finished < total, let left = secondsLeft { line += " · about \(Console.duration(left)) left" }
        return line
    }

    /// The estimate of the time left, nil before anything can be projected.
    var secondsLeft: Double? {
        let perTrial: Double
        if !durations.isEmpty {
            perTrial = durations.reduce(0, +) / Double(durations.count)
        } else {
            let projected = running.values.filter { $0.fraction > 0.02 }.map { Date().timeIntervalSince($0.started) / $0.fraction }
            guard !projected.isEmpty else { return nil }
            perTrial = projected.reduce(0, +) / Double(projected.count)
        }
        let remaining = Double(total - finished) - running.values.reduce(0) { $0 + $1.fraction }
        return max(0, remaining) * perTrial / Double(max(1, min(jobs, total - finished)))
    }

    private func printLine(_ line: String) {
        lock.withLock {
            // No block before the trials begin (while the data is imported or extracted).
            if isTerminal && total > 0 {
                write(clearBlock() + line + "\n" + block())
            } else {
                write(line + "\n")
            }
        }
    }

    /// Moves the cursor up over the block drawn last and clears it.
    private func clearBlock() -> String {
        defer { drawnLines = 0 }
        return drawnLines == 0 ? "" : "\u{1B}[\(drawnLines)F\u{1B}[J"
    }

    /// The block's text, each line cut to the terminal's width so none wraps.
    private func block() -> String {
        lastDraw = Date()
        let width = columns()
        var lines = [statusLine]
        for (trial, run) in running.sorted(by: { $0.key < $1.key }) {
            var line = "  trial \(trial) [\(run.id)] seed \(run.seed) epoch \(min(run.epoch, run.epochs))/\(run.epochs) "
            line += "[\(ProgressBar.text(fraction: run.batches > 0 ? Double(run.batch) / Double(run.batches) : 0, width: 20))]"
            if let accuracy = run.validationAccuracy { line += " validation accuracy \(String(format: "%.3f", accuracy))" }
            lines.append(line)
        }
        drawnLines = lines.count
        return lines.map { String($0.prefix(max(width - 1, 10))) + "\n" }.joined()
    }
}
