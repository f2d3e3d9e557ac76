/// A syntax error in JSON5 text, with the place it was found and what was expected there.
///
/// Printed as `experiments/x.json5:12:5: expected ',' or '}' after object member, found 'x'`
/// when the file is known, and as `line 12, column 5: ...` otherwise.
public struct JSON5Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path of the file the text came from, if known.
    public var filePath: String?
    /// Where the problem is.
    public var location: SourceLocation
    /// What was wrong, usually what was expected and what was found instead.
    public var message: String

    /// Creates an error.
    public init(filePath: String? = nil, location: SourceLocation, message: String) {
        self.filePath = filePath
        self.location = location
        self.message = message
    }

    /// The 1-based line of the problem.
    public var line: Int { location.line }
    /// The 1-based column of the problem, in Unicode scalars.
    public var column: Int { location.column }

    /// The error as `file:line:column: message`, or `line L, column C: message` without a file.
    public var description: String {
        if let filePath {
            return "\(filePath):\(line):\(column): \(message)"
        }
        return "\(location): \(message)"
    }
}
