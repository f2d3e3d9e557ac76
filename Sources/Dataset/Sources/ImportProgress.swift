import Foundation

/// Progress lines for a source whose import takes a while: every ``interval`` seconds, how many
/// of its files are done and at what rate.
///
/// Nothing is printed for a source read within the first interval, so small data sets log
/// exactly what they did before. Safe to call from several threads at once.
final class ImportProgress: @unchecked Sendable {
    /// Seconds between lines: 5.
    static let interval: TimeInterval = 5

    private let total: Int
    private let subject: String
    private let unit: String
    private let log: (String) -> Void
    private let started = Date()
    /// Guards `done` and `lastLine`, and serializes the calls of `log`.
    private let lock = NSLock()
    private var done = 0
    private var lastLine: Date

    /// - Parameters:
    ///   - total: The number of files (or per-frame folders) of the source.
    ///   - subject: What the line begins with: the role and the source's path.
    ///   - unit: The plural of what is counted ("files", "folders").
    ///   - log: Receives the lines; called under a lock, one line at a time.
    init(total: Int, subject: String, unit: String, log: @escaping (String) -> Void) {
        self.total = total
        self.subject = subject
        self.unit = unit
        self.log = log
        lastLine = started
    }

    /// Counts one finished file, and logs a line if ``interval`` has passed since the last one.
    func finishedOne() {
        lock.withLock {
            done += 1
            let now = Date()
            guard now.timeIntervalSince(lastLine) >= Self.interval, done < total else { return }
            lastLine = now
            let rate = Double(done) / max(now.timeIntervalSince(started), 1e-9)
            log("\(subject): \(done) of \(total) \(unit) imported or read from the cache (\(Int(rate.rounded())) per second)")
        }
    }
}
