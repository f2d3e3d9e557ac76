import AtomicFiles
import Foundation

/// Errors reading or writing a run's report files.
public enum ReportError: Error, CustomStringConvertible, Equatable {
    /// An output file or folder could not be written.
    case writeFailed(path: String, reason: String)
    /// A report file (`curves.csv`, `confusion_test.csv`, `complete.json`, ...) is missing or malformed.
    case unreadableReport(path: String, reason: String)

    public var description: String {
        switch self {
        case let .writeFailed(path, reason):
            return "\(path): cannot write: \(reason)"
        case let .unreadableReport(path, reason):
            return "\(path): cannot read the report file: \(reason)"
        }
    }

    /// The POSIX reason inside a Foundation file error ("Not a directory"), else its description
    /// (``FileErrorReason/of(_:)``). Used for every file error a report or sweep shows.
    public static func reason(_ error: Error) -> String { FileErrorReason.of(error) }
}
