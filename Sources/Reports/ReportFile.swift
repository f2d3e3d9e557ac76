import Foundation
import JSON5

/// Reading the JSON files a run or trial folder holds (`provenance.json`, `config.json`,
/// `complete.json`, ...) with one kind of error.
public enum ReportFile {
    /// Decodes the JSON file at `url` as `Value`.
    ///
    /// - Throws: ``ReportError/unreadableReport(path:reason:)`` naming the file when it is
    ///   missing or unreadable (the system's reason), or when it is not a `Value` (the line,
    ///   column and JSON path of the problem, from ``JSONDocument/decode(_:from:filePath:)``).
    public static func decodeJSON<Value: Decodable>(_ type: Value.Type, from url: URL) throws -> Value {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ReportError.unreadableReport(path: url.path, reason: ReportError.reason(error))
        }
        do {
            return try JSONDocument.decode(type, from: data)
        } catch {
            throw ReportError.unreadableReport(path: url.path, reason: "\(error)")
        }
    }
}
