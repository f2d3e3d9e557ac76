/// ASCII bytes the importers look for.
enum ASCII {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let at = UInt8(ascii: "@")
    static let hash = UInt8(ascii: "#")
    static let questionMark = UInt8(ascii: "?")

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == carriageReturn
    }
}

extension ArraySlice<UInt8> {
    /// The slice without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> ArraySlice<UInt8> {
        guard let first = firstIndex(where: { !ASCII.isWhitespace($0) }),
              let last = lastIndex(where: { !ASCII.isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }

    /// True if the slice holds only spaces and tabs.
    var isBlank: Bool { allSatisfy(ASCII.isWhitespace) }

    /// The fields between `separator` bytes, empty fields included.
    func fields(separatedBy separator: UInt8) -> [ArraySlice<UInt8>] {
        split(separator: separator, omittingEmptySubsequences: false)
    }

    /// Whitespace-separated words.
    func words() -> [ArraySlice<UInt8>] {
        split(whereSeparator: ASCII.isWhitespace)
    }

    /// The bytes decoded as UTF-8 (invalid sequences become U+FFFD).
    var text: String { String(decoding: self, as: UTF8.self) }

    /// Parses a finite value, throwing the errors every importer reports for a bad value.
    ///
    /// Accepts what Swift's `Float(_: String)` and `Double(_: String)` accept (decimal and
    /// exponent notation) after trimming spaces; the conversion is correctly rounded to `Value`
    /// and independent of the locale.
    /// - Throws: ``ImportError`` `.nonNumeric` quoting the token, or `.nonFiniteValue` for NaN,
    ///   infinity and values beyond `Value`'s range.
    func parseFinite<Value: BinaryFloatingPoint & LosslessStringConvertible>(
        _: Value.Type, sampleID: String, location: ImportError.ValueLocation, path: String, line: Int
    ) throws -> Value {
        // Small tokens (most numbers) decode into a String without allocating.
        let token = trimmingWhitespace().text
        guard let value = Value(token) else {
            throw ImportError(path: path, line: line, kind: .nonNumeric(token: token, location: location))
        }
        guard value.isFinite else {
            throw ImportError(
                path: path, line: line,
                kind: .nonFiniteValue(sampleID: sampleID, token: token, location: location))
        }
        return value
    }
}
