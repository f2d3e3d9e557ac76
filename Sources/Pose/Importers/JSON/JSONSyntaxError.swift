import Foundation

/// Where and why `JSONSerialization` could not parse a file, as a line and column an editor can
/// jump to.
///
/// Foundation reports a syntax error only as "Invalid value around character 12." (a 0-based
/// offset in UTF-16 units of the text) under `NSDebugDescription`; its `localizedDescription`
/// ("The data is not in the correct format.") says nothing about the place.
public struct JSONSyntaxError: Sendable, Equatable {
    /// The 1-based line of the offending character, or nil when Foundation gave no offset.
    public var line: Int?
    /// The 1-based column (in characters) of the offending character, or nil with `line`.
    public var column: Int?
    /// Foundation's description of the problem, with the offset replaced by the column.
    public var reason: String

    /// Reads the place out of `error`, thrown by `JSONSerialization.jsonObject(with: data)`.
    public init(_ error: any Error, in data: Data) {
        let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        let text = debug ?? (error as NSError).localizedDescription
        guard let range = text.range(of: #"character \d+"#, options: .regularExpression),
              let offset = Int(text[range].dropFirst("character ".count))
        else {
            // A file cut short: Foundation gives no offset, but the place is the end of the text.
            if text.localizedCaseInsensitiveContains("end of file"), data.count <= 1 << 24 {
                let (line, column) = Self.place(ofUTF16Offset: .max, in: data)
                self.line = line
                self.column = column
                self.reason = "the text ends early, at line \(line), column \(column) (a file cut short?)"
                return
            }
            self.line = nil
            self.column = nil
            self.reason = text.isEmpty ? "syntax error" : text
            return
        }
        let (line, column) = Self.place(ofUTF16Offset: offset, in: data)
        self.line = line
        self.column = column
        self.reason = text.replacingCharacters(in: range, with: "column \(column)")
            .replacingOccurrences(of: " around column", with: " at column")
    }

    /// The 1-based line and column of the UTF-16 offset `offset` of `data`'s text (its end when
    /// `offset` is past it), counting the first 16 MiB.
    private static func place(ofUTF16Offset offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let utf16 = String(decoding: data.prefix(1 << 24), as: UTF8.self).utf16
        var consumed = 0
        for unit in utf16 {
            if consumed >= offset { break }
            consumed += 1
            if unit == 0x0A {
                line += 1
                column = 1
            } else if !UTF16.isTrailSurrogate(unit) {
                column += 1
            }
        }
        return (line, column)
    }
}
