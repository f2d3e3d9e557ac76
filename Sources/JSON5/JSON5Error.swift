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

    /// More problems of the same document found past this one (the other duplicate keys), in
    /// text order; empty for a syntax error, where parsing stops.
    public var others: [JSON5Error]

    /// Creates an error.
    public init(filePath: String? = nil, location: SourceLocation, message: String, others: [JSON5Error] = []) {
        self.filePath = filePath
        self.location = location
        self.message = message
        self.others = others
    }

    /// The 1-based line of the problem.
    public var line: Int { location.line }
    /// The 1-based column of the problem, in Unicode scalars.
    public var column: Int { location.column }

    /// The error as `file:line:column: message`, or `line L, column C: message` without a file,
    /// followed by each of ``others`` on a line of its own, indented as a manifest's problems are.
    public var description: String {
        let this = filePath.map { "\($0):\(line):\(column): \(message)" } ?? "\(location): \(message)"
        return ([this] + others.map(\.description)).joined(separator: "\n  ")
    }
}
