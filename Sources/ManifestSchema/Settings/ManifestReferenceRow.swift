/// One row of the manifest reference: a key's dotted path, its type, default, bounds and
/// documentation, in Markdown.
package struct ManifestReferenceRow: Hashable, Sendable {
    /// The dotted path, such as `training.schedule.kind`.
    package var key: String
    /// The type in words, such as `integer`.
    package var type: String
    /// The default: a value in code format, or words (`required`, `none`, `features.frameRate`).
    package var defaultValue: String
    /// The allowed values in words, such as `[1, 100000]`; empty when the type is enough.
    package var bounds: String
    /// One line of documentation.
    package var documentation: String

    /// Creates a row.
    package init(key: String, type: String, defaultValue: String, bounds: String, documentation: String) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.bounds = bounds
        self.documentation = documentation
    }

    /// The rows as a Markdown table with the columns key, type, default, bounds and meaning,
    /// ending in a newline; `|` inside a cell is escaped.
    package static func markdownTable(_ rows: [ManifestReferenceRow]) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| key | type | default | bounds | meaning |", "|---|---|---|---|---|"]
        for row in rows {
            lines.append(
                "| `\(row.key)` | \(cell(row.type)) | \(cell(row.defaultValue)) | \(cell(row.bounds)) | \(cell(row.documentation)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
