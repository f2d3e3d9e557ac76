/// Every problem found in one manifest, reported together so they can all be fixed at once.
///
/// Printed one issue per line in the `file:line:column: message` form that editors and
/// terminals link to, ordered by position in the file:
///
/// ```
/// experiments/x.json5:12:5: dataset.valdation: unknown key; did you mean 'validation'?
/// experiments/x.json5:20:13: training.epochs: value out of range: expected an integer in [1, 100000], found 0
/// ```
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The manifest's path as given to the user, such as `experiments/x.json5`.
    public var filePath: String
    /// The problems, ordered by line and column.
    public var issues: [ManifestIssue]

    /// Creates an error, ordering the issues by their position in the file.
    public init(filePath: String, issues: [ManifestIssue]) {
        self.filePath = filePath
        self.issues = issues.enumerated()
            .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
    }

    /// One line per issue: `file:line:column: path: message`.
    public var description: String {
        issues.map { "\(filePath):\($0.line):\($0.column): \($0)" }.joined(separator: "\n")
    }
}
