/// A single-pass reader of the UTF-8 bytes of one OpenPose per-frame JSON file that returns each
/// person's `pose_keypoints_2d` numbers without building Foundation objects.
///
/// `JSONSerialization` on Linux builds an `NSDictionary`/`NSArray`/`NSNumber` tree that
/// ``JSONCursor`` then casts back to Swift values; for a 54-number frame file that is most of the
/// import's time (issue 16). This scanner checks the whole text against the JSON grammar
/// (RFC 8259: whitespace, any key order, unknown members and values of any type skipped, string
/// escapes, numbers with sign, fraction and exponent) and keeps only `$.people[*].pose_keypoints_2d`.
///
/// It answers only when it is sure to agree with the `JSONSerialization` path: a file it does not
/// accept (a syntax error, a value of an unexpected type, or anything it does not decide itself,
/// such as non-ASCII bytes, a key containing an escape, a `\u` surrogate, a repeated `people` or
/// `pose_keypoints_2d` key, an integer of more than 15 digits, a non-finite number, nesting deeper
/// than ``maximumDepth``) gives nil, and the importer reads that file through ``JSONCursor``, which
/// accepts it with the same values or throws today's error (file, line and column). So the
/// scanner changes speed, never results or messages. One exception, in the scanner's favour: its
/// numbers are `strtod`'s, correctly rounded, where `JSONSerialization` (swift-corelibs-foundation)
/// can be an ulp off for numbers of 13 or more significant digits (`0.0298582369875509` gives
/// 0.029858236987550895) or far below 1 (`0.00000000000000000000001`); OpenPose writes at most 7.
struct OpenPoseFrameScanner {
    /// Nesting deeper than this is left to `JSONSerialization` (which has its own limit).
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The `pose_keypoints_2d` numbers of each person of the frame text `bytes`, in file order,
    /// people without that member (or with `null`) left out; a file without `people` (or with
    /// `null`) has none.
    ///
    /// - Parameter bytes: The file's bytes (UTF-8 JSON).
    /// - Returns: One array per person, the numbers as `Double` exactly as `JSONSerialization`
    ///   gives them (integers through `Int`, others correctly rounded); nil when the scanner does
    ///   not accept the file (see the type's description) and the caller must use ``JSONCursor``.
    static func keypointArrays(in bytes: UnsafeBufferPointer<UInt8>) -> [[Double]]? {
        var scanner = OpenPoseFrameScanner(bytes)
        return scanner.root()
    }

    // MARK: - Document structure

    private mutating func root() -> [[Double]]? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { return nil }
        index += 1
        var people: [[Double]]?
        var sawPeople = false
        let complete = members { scanner, key in
            guard key.elementsEqual("people".utf8) else { return scanner.skipValue(depth: 1) }
            guard !sawPeople else { return false }
            sawPeople = true
            if scanner.skipNull() { return true }
            people = scanner.peopleArray()
            return people != nil
        }
        guard complete else { return nil }
        skipWhitespace()
        guard index == bytes.count else { return nil }
        return people ?? []
    }

    /// `people`: an array of person objects.
    private mutating func peopleArray() -> [[Double]]? {
        guard peek() == UInt8(ascii: "[") else { return nil }
        index += 1
        var people: [[Double]] = []
        let complete = elements { scanner in
            guard scanner.peek() == UInt8(ascii: "{") else { return false }
            scanner.index += 1
            var keypoints: [Double]?
            var sawKeypoints = false
            let person = scanner.members { scanner, key in
                guard key.elementsEqual("pose_keypoints_2d".utf8) else { return scanner.skipValue(depth: 3) }
                guard !sawKeypoints else { return false }
                sawKeypoints = true
                if scanner.skipNull() { return true }
                keypoints = scanner.numberArray()
                return keypoints != nil
            }
            if let keypoints { people.append(keypoints) }
            return person
        }
        return complete ? people : nil
    }

    /// An array of numbers only.
    private mutating func numberArray() -> [Double]? {
        guard peek() == UInt8(ascii: "[") else { return nil }
        index += 1
        var values: [Double] = []
        values.reserveCapacity(75)
        let complete = elements { scanner in
            guard let value = scanner.number() else { return false }
            values.append(value)
            return true
        }
        return complete ? values : nil
    }

    /// The members of an object whose `{` was consumed, through its `}`; `member` reads each
    /// value (the scanner at its first byte) and returns false to give up.
    private mutating func members(_ member: (inout OpenPoseFrameScanner, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard let key = key() else { return false }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard member(&self, key) else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// The elements of an array whose `[` was consumed, through its `]`; `element` reads each
    /// (the scanner at its first byte) and returns false to give up.
    private mutating func elements(_ element: (inout OpenPoseFrameScanner) -> Bool) -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard element(&self) else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// Any JSON value, checked and skipped.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, let byte = peek() else { return false }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            return members { scanner, _ in scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            return elements { scanner in scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number() != nil
        }
    }

    // MARK: - Tokens

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// `null` if it is next (consumed); false, consuming nothing, otherwise.
    private mutating func skipNull() -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        return literal("null")
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            return false
        }
        index += count
        return true
    }

    /// A member name without escapes or non-ASCII bytes (others are left to `JSONSerialization`):
    /// its bytes, between the quotes.
    private mutating func key() -> UnsafeBufferPointer<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// A string value, checked (control characters, escapes) and skipped.
    private mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { return false }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard bytes.count - index >= 4 else { return false }
                    var code = 0
                    for _ in 0..<4 {
                        guard let digit = Self.hexValue(bytes[index]) else { return false }
                        code = code * 16 + digit
                        index += 1
                    }
                    // Surrogates (pairs or lone) are left to JSONSerialization's own rules.
                    guard !(0xD800...0xDFFF).contains(code) else { return false }
                default: return false
                }
            default:
                guard byte >= 0x20, byte < 0x80 else { return false }
            }
        }
        return false
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// A number in RFC 8259's grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`),
    /// as `JSONSerialization` gives it: an integer through `Int` (up to 15 digits here), any other
    /// correctly rounded (``exactDecimal(_:)`` when it applies, else `Double(_:)`, glibc's
    /// `strtod`); nil for other text, `-0`, or a non-finite result.
    private mutating func number() -> Double? {
        let start = index
        var integer = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        guard let first = peek(), Self.isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = peek(), Self.isDigit(byte) { index += 1 }
        }
        let integerDigits = index - digitsStart
        if peek() == UInt8(ascii: ".") {
            integer = false
            index += 1
            guard skipDigits() else { return nil }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            integer = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if !integer, let value = Self.exactDecimal(text) { return value }
        if integer {
            guard integerDigits <= 15 else { return nil }
            var value = 0
            for byte in text where byte != UInt8(ascii: "-") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if text[0] == UInt8(ascii: "-") {
                // `-0` is Int 0 to JSONSerialization; left to it rather than guessed.
                guard value != 0 else { return nil }
                value = -value
            }
            return Double(value)
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Powers of ten that are exact in a `Double` (10^22 is the largest: 5^22 < 2^53).
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The correctly rounded value of a decimal number already checked against the grammar, when
    /// Clinger's fast path applies (W. D. Clinger, "How to Read Floating Point Numbers
    /// Accurately", PLDI 1990, the condition `fast_float` and every `strtod` test first): at most
    /// 15 significant digits, so the digits as an integer `w` are exact in a `Double`, and a
    /// power-of-ten scale `10^k` with |k| ≤ 22, which is exact too; then `w / 10^k` or `w · 10^k`
    /// is one IEEE 754 operation on exact operands and so correctly rounded, the same `Double`
    /// that `strtod` gives. Nil otherwise (the caller then uses `Double(_:)`).
    private static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var position = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { position = 1 }
        var digits = 0
        var significand = 0
        var fractionDigits = 0
        var inFraction = false
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if isDigit(byte) {
                // Leading zeros are not significant digits.
                if significand != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                significand = significand * 10 + Int(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            position += 1
        }
        var exponent = 0
        if position < text.count {
            // `e` or `E`, an optional sign, then at least one digit (the grammar was checked).
            position += 1
            var exponentNegative = false
            if text[position] == UInt8(ascii: "+") || text[position] == UInt8(ascii: "-") {
                exponentNegative = text[position] == UInt8(ascii: "-")
                position += 1
            }
            while position < text.count {
                guard exponent < 1_000 else { return nil }
                exponent = exponent * 10 + Int(text[position] - UInt8(ascii: "0"))
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let scale = exponent - fractionDigits
        guard abs(scale) <= 22 else { return significand == 0 && abs(exponent) < 1_000 ? (negative ? -0.0 : 0.0) : nil }
        var value = Double(significand)
        value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        return negative ? -value : value
    }

    private mutating func skipDigits() -> Bool {
        guard let byte = peek(), Self.isDigit(byte) else { return false }
        while let byte = peek(), Self.isDigit(byte) { index += 1 }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
