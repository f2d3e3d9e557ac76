import AtomicFiles
import Foundation
import Pose

/// Create ML's montage annotations: which part of which video shows which action.
///
/// A JSON file holds `[{"file_name": "clip.mov", "label": "squat", "start_time": 1.5, "end_time": 4}, ...]`;
/// a CSV file has a header row naming the columns `file_name`, `label`, `start_time`, `end_time`
/// (in any order; only the first two are required) and one row per annotation. Times are seconds
/// from the video's first displayed frame: a missing (or empty, or `null`) start means 0, a
/// missing end means the end of the video; a range past the end is clamped when the video is read.
/// `file_name` resolves against the annotation file's folder and must stay inside it (no `..`
/// escapes, absolute paths or symbolic links pointing out), so an annotation file can name only
/// its own dataset's videos.
public enum MontageAnnotations {
    /// Reads the annotations of `url` (`.json` or `.csv`).
    /// - Returns: One sample per annotation, in file order, `origin` naming its line or JSON index.
    /// - Throws: ``DatasetSourceError`` naming the file and the line or JSON path of the first
    ///   problem: unreadable, malformed, a required field missing, a time that is not a
    ///   non-negative number, a start not before its end, a file name outside the folder.
    public static func samples(in url: URL) throws -> [DatasetSample] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw DatasetSourceError(file: url.path, message: "cannot read: \(FileErrorReason.of(error))")
        }
        let rows = url.pathExtension.lowercased() == "csv" ? try csvRows(text, file: url.path) : try jsonRows(text, file: url.path)
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL
        return try rows.map { row in
            func fail(_ field: String?, _ message: String) -> DatasetSourceError {
                DatasetSourceError(file: url.path, location: row.location(field), message: message)
            }
            guard let name = row.fields["file_name"] ?? nil, !name.isEmpty else { throw fail("file_name", "expected a file name, found nothing") }
            guard let label = row.fields["label"] ?? nil, !label.isEmpty else { throw fail("label", "expected a label, found nothing") }
            let file = folder.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL
            guard !name.hasPrefix("/"), file.path.hasPrefix(folder.path + "/") else {
                throw fail("file_name", "'\(name)' resolves to \(file.path), outside the dataset folder \(folder.path)")
            }
            let start = try time(row, "start_time", fail)
            let end = try time(row, "end_time", fail)
            if let end, end <= (start ?? 0) {
                throw fail("end_time", "expected an end time after the start time \(start ?? 0) s, found \(end) s")
            }
            return DatasetSample(file: file, label: label, start: start, end: end, origin: "\(url.lastPathComponent) \(row.location(nil))")
        }
    }

    /// One annotation's fields as text (nil: absent or null) and where it is.
    private struct Row {
        var fields: [String: String?]
        /// `line N` (CSV) or `$[N]` (JSON).
        var position: String
        var isJSON: Bool

        func location(_ field: String?) -> String {
            guard let field else { return position }
            return isJSON ? "\(position).\(field)" : "\(position), column \(field)"
        }
    }

    private static func time(_ row: Row, _ field: String, _ fail: (String?, String) -> DatasetSourceError) throws -> Double? {
        guard let text = row.fields[field] ?? nil, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            throw fail(field, "expected a time in seconds (a number >= 0), found '\(text)'")
        }
        return value
    }

    private static let columns = ["file_name", "label", "start_time", "end_time"]

    private static func jsonRows(_ text: String, file: String) throws -> [Row] {
        let parsed: Any
        let data = Data(text.utf8)
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let syntax = JSONSyntaxError(error, in: data)
            throw DatasetSourceError(file: file, location: syntax.line.map { "line \($0)" }, message: "not valid JSON: \(syntax.reason)")
        }
        guard let array = parsed as? [Any] else {
            throw DatasetSourceError(file: file, location: "$", message: "expected an array of {file_name, label, start_time, end_time} objects")
        }
        return try array.enumerated().map { index, element in
            guard let object = element as? [String: Any] else {
                throw DatasetSourceError(file: file, location: "$[\(index)]", message: "expected an object")
            }
            var fields: [String: String?] = [:]
            for (key, value) in object {
                guard columns.contains(key) else {
                    throw DatasetSourceError(
                        file: file, location: "$[\(index)].\(key)", message: "unknown key; expected \(columns.joined(separator: ", "))")
                }
                switch value {
                case is NSNull: fields[key] = .some(nil)
                case let string as String: fields[key] = string
                case let number as NSNumber where String(cString: number.objCType) != "c":  // not true/false
                    fields[key] = "\(number.doubleValue)"
                default:
                    throw DatasetSourceError(file: file, location: "$[\(index)].\(key)", message: "expected a string or a number")
                }
            }
            return Row(fields: fields, position: "$[\(index)]", isJSON: true)
        }
    }

    private static func csvRows(_ text: String, file: String) throws -> [Row] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { (number: $0 + 1, text: $1.hasSuffix("\r") ? String($1.dropLast()) : String($1)) }
            .filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        guard !lines.isEmpty else { throw DatasetSourceError(file: file, message: "empty: expected a header row file_name,label,start_time,end_time") }
        let header = lines.removeFirst()
        let names = header.text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names where !columns.contains(name) {
            throw DatasetSourceError(file: file, location: "line \(header.number)", message: "unknown column '\(name)'; expected \(columns.joined(separator: ", "))")
        }
        for required in columns.prefix(2) where !names.contains(required) {
            throw DatasetSourceError(file: file, location: "line \(header.number)", message: "missing column '\(required)'")
        }
        return try lines.map { line in
            let values = line.text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard values.count == names.count else {
                throw DatasetSourceError(
                    file: file, location: "line \(line.number)", message: "expected \(names.count) comma-separated fields, found \(values.count)")
            }
            var fields: [String: String?] = [:]
            for (name, value) in zip(names, values) { fields[name] = value.isEmpty ? .some(nil) : value }
            return Row(fields: fields, position: "line \(line.number)", isJSON: false)
        }
    }
}
