internal import CMatio
import HDF5

/// Captures what libmatio logs, so that its messages end up in ``MATFileError`` instead of stderr.
///
/// libmatio reports problems by formatting a message and passing it to one process-wide log
/// function (`Mat_LogInitFunc`); by default it prints to stderr (and aborts on `Mat_Error`, which
/// the library itself never calls). This type installs a function that stores each message, and
/// the check layer (``MATLocation``) takes the stored messages right after the call that produced
/// them. The store is guarded by the lock every libmatio call runs under (``withLock(_:)``).
enum MatioLog {
    /// One logged message: libmatio's level (`MATIO_LOG_LEVEL_*`) and its text.
    struct Record {
        var level: Int32
        var text: String
    }

    /// Messages logged since the last ``withLock(_:)`` entry or ``take()``; touched only with the lock held.
    nonisolated(unsafe) private static var records: [Record] = []

    /// Installs the capturing log function once per process (Swift runs this initializer once).
    private static let handlerInstalled: Bool = {
        Mat_LogInitFunc("actionlab") { level, message in
            let text = message.map { String(cString: $0) } ?? ""
            MatioLog.records.append(Record(level: level, text: text.trimmingTrailingNewlines()))
        } == 0
    }()

    /// Runs `body` holding the lock that every libmatio call needs, with an empty message store.
    ///
    /// The lock is the HDF5 module's (``HDF5Lock``): MAT 7.3 files are HDF5 files that libmatio
    /// reads and writes through the same serial (not thread-safe) libhdf5 as ActionLab's HDF5
    /// module, so both libraries must never run at the same time. libmatio's own global state
    /// (its log function) is serialized by the same lock. The lock is recursive.
    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try HDF5Lock.withLock {
            _ = handlerInstalled
            records.removeAll()
            return try body()
        }
    }

    /// The problems (errors, critical errors and warnings) logged since the lock was taken or the
    /// last call, as one line separated by `; `, clearing the store. Call with the lock held.
    static func takeProblems() -> String {
        let problemLevels = actionlab_MATIO_LOG_LEVEL_ERROR() | actionlab_MATIO_LOG_LEVEL_CRITICAL()
            | actionlab_MATIO_LOG_LEVEL_WARNING()
        let problems = records.filter { $0.level & problemLevels != 0 }.map(\.text)
        records.removeAll()
        return problems.joined(separator: "; ")
    }

    /// Whether a problem (error, critical error or warning) was logged since the lock was taken or
    /// the last ``takeProblems()``. Call with the lock held.
    static var hasProblems: Bool {
        let problemLevels = actionlab_MATIO_LOG_LEVEL_ERROR() | actionlab_MATIO_LOG_LEVEL_CRITICAL()
            | actionlab_MATIO_LOG_LEVEL_WARNING()
        return records.contains { $0.level & problemLevels != 0 }
    }
}

extension String {
    /// The string without trailing line breaks (libmatio's messages sometimes end in one).
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last.isNewline { text = text.dropLast() }
        return String(text)
    }
}
