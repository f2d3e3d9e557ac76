/// One problem found in a manifest: where it is (JSON path, line, column) and what is wrong.
public struct ManifestIssue: Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value or key, such as `dataset.sources[0].path`; empty
    /// for the document itself.
    public var path: String
    /// The 1-based line of the offending value or key, or of the enclosing object for a
    /// missing key.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int
    /// What is wrong, such as `unknown key; did you mean 'validation'?`.
    public var message: String

    /// Creates an issue.
    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The issue as `path: message`, or just the message for the document itself.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
