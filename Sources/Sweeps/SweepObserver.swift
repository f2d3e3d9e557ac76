import Foundation
import Synchronization

/// Receives a running sweep's progress as it happens, for a progress display: every trial's
/// steps, from this process and from worker processes, and what the workers write to standard
/// error.
///
/// With an observer, `SweepRunner` starts its workers with ``TrialProgress/workerEnvironmentKey``
/// set and reads their standard output (progress, one JSON object a line) and standard error
/// (their log lines) through pipes instead of letting them write to the terminal.
public struct SweepObserver: Sendable {
    /// The trials are about to run: how many the sweep has, how many had finished before, and
    /// how many run at once.
    public var began: @Sendable (_ trials: Int, _ finished: Int, _ atOnce: Int) -> Void
    /// A step of a trial, from any thread.
    public var progress: @Sendable (TrialProgress) -> Void
    /// A line a worker wrote to standard error, without its newline, from any thread.
    public var workerLine: @Sendable (String) -> Void

    public init(
        began: @escaping @Sendable (_ trials: Int, _ finished: Int, _ atOnce: Int) -> Void,
        progress: @escaping @Sendable (TrialProgress) -> Void, workerLine: @escaping @Sendable (String) -> Void
    ) {
        self.began = began
        self.progress = progress
        self.workerLine = workerLine
    }

    /// Reads `pipe` to its end on a thread of its own, calling `line` for each line; `group` is
    /// entered until the end is reached.
    static func readLines(of pipe: Pipe, group: DispatchGroup, _ line: @escaping @Sendable (String) -> Void) {
        group.enter()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    line(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
            group.leave()
        }
    }

    /// The worker's side: a `TrialRunner` progress handler writing JSON lines to standard output,
    /// when the parent asked for them; nil otherwise. Batch events are thinned to at most one
    /// every ``workerBatchInterval`` seconds (an epoch's last batch always goes through): a small
    /// model trains thousands of batches a second, and the display redraws a few times a second.
    static var workerProgressWriter: ((TrialProgress) -> Void)? {
        guard ProcessInfo.processInfo.environment[TrialProgress.workerEnvironmentKey] == "1" else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let lastBatch = Mutex(Date.distantPast)
        return { event in
            if case .batch(_, _, let done, let batches) = event, done < batches {
                let now = Date()
                let due = lastBatch.withLock { last in
                    guard now.timeIntervalSince(last) >= workerBatchInterval else { return false }
                    last = now
                    return true
                }
                guard due else { return }
            }
            guard let data = try? encoder.encode(event) else { return }
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }

    /// The shortest time between two batch events a worker writes, in seconds.
    static let workerBatchInterval: TimeInterval = 0.1
}
