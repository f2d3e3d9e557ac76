/// A position in JSON5 source text: a 1-based line and a 1-based column.
///
/// Columns count Unicode scalars from the start of the line, so a tab or a multi-byte
/// character each advance the column by one. Lines end at `\n`, `\r\n`, `\r`, U+2028 and
/// U+2029, as in the JSON5 specification (section 5.3, "Line Terminators").
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The line number, starting at 1.
    public var line: Int
    /// The column number within the line, starting at 1, counted in Unicode scalars.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The first character of a document.
    public static let start = SourceLocation(line: 1, column: 1)

    /// Orders locations as they appear in the text.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// The location as `line 12, column 5`.
    public var description: String { "line \(line), column \(column)" }
}
