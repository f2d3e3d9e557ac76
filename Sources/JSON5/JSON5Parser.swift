/// A recursive-descent parser for JSON5 text (https://spec.json5.org/, version 1.0.0).
///
/// It accepts everything in the specification: `//` and `/* */` comments, trailing commas,
/// unquoted identifier keys (with `\u` escapes), single-quoted strings, line continuations,
/// `\x` escapes, hexadecimal numbers, leading and trailing decimal points, an explicit plus
/// sign, `Infinity` and `NaN`. Duplicate keys in one object are an error, named by their JSON path
/// (`training.epochs: duplicate key`): parsing goes on past them, so that every duplicate of a
/// syntactically valid document is reported at once. Every
/// other error names the line and column where parsing stopped and what was expected there.
struct JSON5Parser {
    /// Objects and arrays nested deeper than this are rejected rather than overflowing the stack.
    static let maximumDepth = 512

    private let scalars: [Unicode.Scalar]
    private let filePath: String?
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0
    /// The duplicate keys found so far, in text order.
    private var duplicateKeys: [JSON5Error] = []
    /// Where the parser is: the keys and indices from the root to the value being parsed.
    private var path: [JSONPath.Component] = []

    init(text: String, filePath: String?) {
        scalars = Array(text.unicodeScalars)
        self.filePath = filePath
    }

    /// Parses the whole text as one value surrounded by optional whitespace and comments.
    mutating func parseDocument() throws -> JSON5Value {
        let (value, duplicateKeys) = try parseDocumentKeepingDuplicateKeys()
        if var first = duplicateKeys.first {
            first.others = Array(duplicateKeys.dropFirst())
            throw first
        }
        return value
    }

    /// Parses the whole text as ``parseDocument()`` does, but returns the duplicate keys (in
    /// text order) beside the value instead of throwing them; the value keeps each key's first
    /// member. Throws only syntax errors.
    mutating func parseDocumentKeepingDuplicateKeys() throws -> (value: JSON5Value, duplicateKeys: [JSON5Error]) {
        // A byte order mark is whitespace in JSON5 (section 5.2, "White Space").
        try skipWhitespaceAndComments()
        guard current != nil else { throw error("expected a value, found end of input") }
        let value = try parseValue()
        try skipWhitespaceAndComments()
        if current != nil { throw error("expected end of input after the value, found \(describeCurrent())") }
        return (value, duplicateKeys)
    }

    // MARK: - Values

    private mutating func parseValue() throws -> JSON5Value {
        let start = location
        guard let scalar = current else { throw error("expected a value, found end of input") }
        switch scalar {
        case "{": return JSON5Value(.object(try parseObject()), at: start)
        case "[": return JSON5Value(.array(try parseArray()), at: start)
        case "\"", "'": return JSON5Value(.string(try parseString()), at: start)
        case "+", "-", ".", "0"..."9", "I", "N": return JSON5Value(.number(try parseNumber()), at: start)
        default:
            guard Self.isIdentifierStart(scalar) else {
                throw error("expected a value, found \(describeCurrent())")
            }
            let word = try parseIdentifierName()
            switch word {
            case "null": return JSON5Value(.null, at: start)
            case "true": return JSON5Value(.bool(true), at: start)
            case "false": return JSON5Value(.bool(false), at: start)
            default:
                throw JSON5Error(
                    filePath: filePath, location: start,
                    message: "expected a value, found '\(EchoedText.shortened(word))' (strings need quotes)")
            }
        }
    }

    private mutating func parseObject() throws -> [JSON5Member] {
        try enterContainer()
        defer { depth -= 1 }
        advance()  // {
        var members: [JSON5Member] = []
        var keyLocations: [String: SourceLocation] = [:]
        while true {
            try skipWhitespaceAndComments()
            if current == "}" { break }
            let keyLocation = location
            let key = try parseKey()
            let isDuplicate = keyLocations[key] != nil
            if let first = keyLocations[key] {
                duplicateKeys.append(JSON5Error(
                    filePath: filePath, location: keyLocation,
                    message: "\(JSONPath(path + [.key(key)])): duplicate key (first defined at \(first))"))
            } else {
                keyLocations[key] = keyLocation
            }
            try skipWhitespaceAndComments()
            guard current == ":" else { throw error("expected ':' after key '\(EchoedText.shortened(key))', found \(describeCurrent())") }
            advance()
            try skipWhitespaceAndComments()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            if !isDuplicate { members.append(JSON5Member(key: key, keyLocation: keyLocation, value: value)) }
            try skipWhitespaceAndComments()
            if current == "," {
                advance()
            } else if current == "}" {
                break
            } else {
                throw error("expected ',' or '}' after object member, found \(describeCurrent())")
            }
        }
        advance()  // }
        return members
    }

    private mutating func parseArray() throws -> [JSON5Value] {
        try enterContainer()
        defer { depth -= 1 }
        advance()  // [
        var elements: [JSON5Value] = []
        while true {
            try skipWhitespaceAndComments()
            if current == "]" { break }
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            try skipWhitespaceAndComments()
            if current == "," {
                advance()
            } else if current == "]" {
                break
            } else {
                throw error("expected ',' or ']' after array element, found \(describeCurrent())")
            }
        }
        advance()  // ]
        return elements
    }

    private mutating func enterContainer() throws {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("objects and arrays are nested deeper than \(Self.maximumDepth) levels")
        }
    }

    /// A member name: a string or an ECMAScript 5.1 IdentifierName (JSON5 section 3).
    private mutating func parseKey() throws -> String {
        guard let scalar = current else { throw error("expected a key or '}', found end of input") }
        if scalar == "\"" || scalar == "'" { return try parseString() }
        if Self.isIdentifierStart(scalar) || scalar == "\\" { return try parseIdentifierName() }
        throw error("expected a key or '}', found \(describeCurrent())")
    }

    // MARK: - Identifiers

    private mutating func parseIdentifierName() throws -> String {
        var name = String.UnicodeScalarView()
        var isFirst = true
        while let scalar = current {
            let resolved: Unicode.Scalar
            let scalarLocation = location
            if scalar == "\\" {
                advance()
                guard current == "u" else { throw error("expected 'u' after '\\' in a key, found \(describeCurrent())") }
                advance()
                resolved = try parseUnicodeEscape(startingAt: scalarLocation)
            } else {
                resolved = scalar
            }
            let isValid = isFirst ? Self.isIdentifierStart(resolved) : Self.isIdentifierPart(resolved)
            if !isValid {
                if scalar == "\\" {
                    throw JSON5Error(
                        filePath: filePath, location: scalarLocation,
                        message: "escape \\u\(Self.hex(resolved)) is not allowed in a key")
                }
                break
            }
            if scalar != "\\" { advance() }
            name.append(resolved)
            isFirst = false
        }
        return String(name)
    }

    /// ECMAScript 5.1 IdentifierStart: `$`, `_` or a Unicode letter (categories L* and Nl).
    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "$" || scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return true
        default:
            return false
        }
    }

    /// ECMAScript 5.1 IdentifierPart: a start character, Mn, Mc, Nd, Pc, ZWNJ or ZWJ.
    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        if isIdentifierStart(scalar) || scalar == "\u{200C}" || scalar == "\u{200D}" { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
            return true
        default:
            return false
        }
    }

    // MARK: - Strings

    private mutating func parseString() throws -> String {
        let start = location
        guard let quote = current else { throw error("expected a string, found end of input") }
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = current else {
                throw JSON5Error(filePath: filePath, location: start, message: "unterminated string: expected a closing \(quote)")
            }
            if scalar == quote {
                advance()
                return String(result)
            }
            if scalar == "\n" || scalar == "\r" {
                throw error("unescaped line break in string: end the line with '\\' to continue the string, or write \\n")
            }
            if scalar == "\\" {
                if let escaped = try parseEscape() { result.append(escaped) }
            } else if Self.isLineTerminator(scalar) {
                result.append(scalar)
                advance()
            } else {
                // A run of plain characters is copied at once: a 10 MB string appended one
                // scalar at a time took seconds, for every trial of a sweep.
                var end = index + 1
                while end < scalars.count {
                    let next = scalars[end]
                    if next == quote || next == "\\" || Self.isLineTerminator(next) { break }
                    end += 1
                }
                result.append(contentsOf: scalars[index..<end])
                column += end - index
                index = end
            }
        }
    }

    /// Parses an escape sequence after `\`; returns `nil` for a line continuation.
    private mutating func parseEscape() throws -> Unicode.Scalar? {
        let start = location
        advance()  // backslash
        guard let scalar = current else { throw error("expected an escape sequence after '\\', found end of input") }
        advance()
        switch scalar {
        case "\n", "\u{2028}", "\u{2029}":
            return nil
        case "\r":
            if current == "\n" { advance() }
            return nil
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "v": return "\u{0B}"
        case "0":
            if let next = current, ("0"..."9").contains(next) {
                throw error("expected a character other than a digit after '\\0' (octal escapes are not allowed)")
            }
            return "\0"
        case "1"..."9":
            throw JSON5Error(filePath: filePath, location: start, message: "digit escape '\\\(scalar)' is not allowed")
        case "x":
            let value = try parseHexDigits(count: 2)
            return Unicode.Scalar(UInt8(value))
        case "u":
            return try parseUnicodeEscape(startingAt: start)
        default:
            return scalar
        }
    }

    /// Parses the four hex digits after `\u`, joining a UTF-16 surrogate pair when one follows.
    private mutating func parseUnicodeEscape(startingAt start: SourceLocation) throws -> Unicode.Scalar {
        let unit = try parseHexDigits(count: 4)
        if let scalar = Unicode.Scalar(unit) { return scalar }
        // A surrogate: valid only as a high surrogate followed by an escaped low surrogate.
        guard (0xD800...0xDBFF).contains(unit), current == "\\", peek(offset: 1) == "u" else {
            throw JSON5Error(filePath: filePath, location: start, message: "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16))")
        }
        advance()
        advance()
        let low = try parseHexDigits(count: 4)
        guard (0xDC00...0xDFFF).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        else {
            throw JSON5Error(filePath: filePath, location: start, message: "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16))")
        }
        return scalar
    }

    private mutating func parseHexDigits(count: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let scalar = current, let digit = Self.hexDigitValue(scalar) else {
                throw error("expected \(count) hexadecimal digits, found \(describeCurrent())")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private static func hexDigitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Numbers

    /// Parses a JSON5 number (section 6): decimal, hexadecimal, `Infinity` or `NaN`, with an
    /// optional sign.
    private mutating func parseNumber() throws -> JSON5Number {
        let start = location
        var isNegative = false
        if current == "+" || current == "-" {
            isNegative = current == "-"
            advance()
        }
        let sign: Double = isNegative ? -1 : 1
        switch current {
        case "I":
            try expectWord("Infinity")
            return JSON5Number(doubleValue: sign * .infinity, integerValue: nil)
        case "N":
            try expectWord("NaN")
            return JSON5Number(doubleValue: .nan, integerValue: nil)
        case "0" where peek(offset: 1) == "x" || peek(offset: 1) == "X":
            advance()
            advance()
            return try parseHexadecimalDigits(isNegative: isNegative)
        default:
            return try parseDecimal(isNegative: isNegative, start: start)
        }
    }

    private mutating func parseHexadecimalDigits(isNegative: Bool) throws -> JSON5Number {
        var digits = ""
        while let scalar = current, Self.hexDigitValue(scalar) != nil {
            digits.unicodeScalars.append(scalar)
            advance()
        }
        guard !digits.isEmpty else { throw error("expected hexadecimal digits after '0x', found \(describeCurrent())") }
        let signed = (isNegative ? "-" : "") + digits
        if let integer = Int(signed, radix: 16) {
            return JSON5Number(integer)
        }
        // Too large for Int: accumulate as a double, as JavaScript does.
        let magnitude = digits.unicodeScalars.reduce(0.0) { $0 * 16 + Double(Self.hexDigitValue($1) ?? 0) }
        return JSON5Number(doubleValue: isNegative ? -magnitude : magnitude, integerValue: nil)
    }

    private mutating func parseDecimal(isNegative: Bool, start: SourceLocation) throws -> JSON5Number {
        let integerDigits = scanDigits()
        if integerDigits.count > 1, integerDigits.hasPrefix("0") {
            throw JSON5Error(
                filePath: filePath, location: start,
                message: "expected a number without leading zeros, found '\(EchoedText.shortened(integerDigits))'")
        }
        var fractionDigits: String?
        if current == "." {
            advance()
            fractionDigits = scanDigits()
        }
        guard !integerDigits.isEmpty || !(fractionDigits ?? "").isEmpty else {
            throw error("expected a digit, found \(describeCurrent())")
        }
        var exponent: String?
        if current == "e" || current == "E" {
            advance()
            var exponentText = ""
            if let sign = current, sign == "+" || sign == "-" {
                exponentText.unicodeScalars.append(sign)
                advance()
            }
            let exponentDigits = scanDigits()
            guard !exponentDigits.isEmpty else { throw error("expected exponent digits, found \(describeCurrent())") }
            exponent = exponentText + exponentDigits
        }
        var text = (isNegative ? "-" : "") + (integerDigits.isEmpty ? "0" : integerDigits)
        if let fractionDigits, !fractionDigits.isEmpty { text += "." + fractionDigits }
        if let exponent { text += "e" + exponent }
        guard let value = Double(text) else { throw error("expected a number, found '\(EchoedText.shortened(text))'") }
        let integerValue = fractionDigits == nil && exponent == nil ? Int(text) : nil
        return JSON5Number(doubleValue: value, integerValue: integerValue)
    }

    private mutating func scanDigits() -> String {
        var digits = ""
        while let scalar = current, ("0"..."9").contains(scalar) {
            digits.unicodeScalars.append(scalar)
            advance()
        }
        return digits
    }

    private mutating func expectWord(_ word: String) throws {
        let start = location
        let found = try parseIdentifierName()
        guard found == word else {
            throw JSON5Error(filePath: filePath, location: start, message: "expected '\(word)', found '\(found)'")
        }
    }

    // MARK: - Whitespace and comments

    /// Skips JSON5 white space (section 5.2) and comments (section 5.1).
    private mutating func skipWhitespaceAndComments() throws {
        while let scalar = current {
            if Self.isWhitespace(scalar) {
                advance()
            } else if scalar == "/" {
                let start = location
                switch peek(offset: 1) {
                case "/":
                    while let next = current, !Self.isLineTerminator(next) { advance() }
                case "*":
                    advance()
                    advance()
                    while current != nil, !(current == "*" && peek(offset: 1) == "/") { advance() }
                    guard current != nil else {
                        throw JSON5Error(filePath: filePath, location: start, message: "unterminated comment: expected '*/'")
                    }
                    advance()
                    advance()
                default:
                    throw error("expected '//' or '/*' to start a comment, found '/'")
                }
            } else {
                return
            }
        }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\t", "\u{0B}", "\u{0C}", " ", "\u{A0}", "\u{FEFF}": return true
        default: return isLineTerminator(scalar) || scalar.properties.generalCategory == .spaceSeparator
        }
    }

    private static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    // MARK: - Cursor

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    /// Moves past the current scalar, counting lines; `\r\n` counts as one line break.
    private mutating func advance() {
        guard let scalar = current else { return }
        index += 1
        if scalar == "\r", current == "\n" {
            column += 1
        } else if Self.isLineTerminator(scalar) {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    private func describeCurrent() -> String {
        guard let scalar = current else { return "end of input" }
        if Self.isLineTerminator(scalar) { return "end of line" }
        if scalar.properties.generalCategory == .control { return "control character U+\(Self.hex(scalar).uppercased())" }
        return "'\(scalar)'"
    }

    private func error(_ message: String) -> JSON5Error {
        JSON5Error(filePath: filePath, location: location, message: message)
    }
}

extension JSON5Value {
    /// Parses JSON5 text into a value whose every node records its source location.
    ///
    /// - Parameters:
    ///   - text: A complete JSON5 document: one value with optional whitespace and comments.
    ///   - filePath: The file the text came from, used only in error messages.
    /// - Throws: ``JSON5Error`` naming the line, the column and what was expected there, for
    ///   invalid syntax and for a key that appears twice in one object.
    public init(parsing text: String, filePath: String? = nil) throws {
        var parser = JSON5Parser(text: text, filePath: filePath)
        self = try parser.parseDocument()
    }

    /// Parses JSON5 text as ``init(parsing:filePath:)`` does, but returns a key that appears
    /// twice in one object beside the value instead of throwing it, so that a manifest's other
    /// problems are found in the same run. The value keeps the first member of each key.
    ///
    /// - Returns: The value, and one ``JSON5Error`` per repeated key (its path, line and column,
    ///   and where the key was first defined), in text order.
    /// - Throws: ``JSON5Error`` for invalid syntax.
    public static func parsingKeepingDuplicateKeys(
        _ text: String, filePath: String? = nil
    ) throws -> (value: JSON5Value, duplicateKeys: [JSON5Error]) {
        var parser = JSON5Parser(text: text, filePath: filePath)
        return try parser.parseDocumentKeepingDuplicateKeys()
    }
}
