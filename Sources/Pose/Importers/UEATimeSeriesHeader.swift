/// The header of a UEA/UCR `.ts` file: the `@keyword value` lines before `@data`.
///
/// Keywords are case-insensitive, as sktime's `load_from_tsfile` reads them; so are `true` and
/// `false`. Unknown keywords are ignored (the format has grown over time), but a known keyword with
/// a malformed value is an error.
struct UEATimeSeriesHeader {
    /// A value with the 1-based line that declared it, for error messages.
    struct Declared<Value> {
        var value: Value
        var line: Int
    }

    var univariate: Declared<Bool>?
    var dimensions: Declared<Int>?
    var equalLength = false
    var seriesLength: Int?
    /// The declared class labels, or nil for `@classLabel false` (rows carry no label).
    var classLabels: Declared<[String]?>?

    /// Applies one header line (starting with `@`).
    /// - Returns: True if the line is `@data`, which ends the header.
    /// - Throws: ``ImportError`` for a malformed line or an unsupported feature.
    mutating func apply(_ line: ArraySlice<UInt8>, number: Int, path: String) throws -> Bool {
        let words = line.dropFirst().words()
        guard let keywordBytes = words.first, keywordBytes.startIndex == line.startIndex + 1 else {
            throw ImportError(
                path: path, line: number,
                kind: .malformedHeader(keyword: "@", expected: "a keyword right after '@'", found: line.text))
        }
        let keyword = "@" + keywordBytes.text
        let values = words.dropFirst()

        func malformed(_ expected: String) -> ImportError {
            ImportError(
                path: path, line: number,
                kind: .malformedHeader(
                    keyword: keyword, expected: expected,
                    found: values.map(\.text).joined(separator: " ")))
        }
        func flag() throws -> Bool {
            guard values.count == 1 else { throw malformed("true or false") }
            switch values[values.startIndex].text.lowercased() {
            case "true": return true
            case "false": return false
            default: throw malformed("true or false")
            }
        }
        func positiveInteger() throws -> Int {
            guard values.count == 1, let value = Int(values[values.startIndex].text), value > 0 else {
                throw malformed("a positive integer")
            }
            return value
        }

        switch keyword.lowercased() {
        case "@problemname":
            guard !values.isEmpty else { throw malformed("a problem name") }
        case "@timestamps":
            if try flag() {
                throw ImportError(
                    path: path, line: number,
                    kind: .unsupported(feature: "timestamped series (@timeStamps true); convert to equally spaced values (README, 'Manifest reference', format \"uea\")"))
            }
        case "@missing":
            // Declared missing values are rejected where a '?' actually occurs, naming the sample.
            _ = try flag()
        case "@univariate":
            univariate = Declared(value: try flag(), line: number)
        case "@dimensions":
            dimensions = Declared(value: try positiveInteger(), line: number)
        case "@equallength":
            equalLength = try flag()
        case "@serieslength":
            seriesLength = try positiveInteger()
        case "@classlabel":
            guard let first = values.first else { throw malformed("true followed by the labels, or false") }
            let labels = values.dropFirst().map(\.text)
            switch first.text.lowercased() {
            case "true" where !labels.isEmpty: classLabels = Declared(value: labels, line: number)
            case "false" where labels.isEmpty: classLabels = Declared(value: nil, line: number)
            default: throw malformed("true followed by the labels, or false")
            }
        case "@targetlabel":
            if try flag() {
                throw ImportError(
                    path: path, line: number,
                    kind: .unsupported(feature: "regression targets (@targetLabel true); ActionLab classifies (README, 'Manifest reference', format \"uea\")"))
            }
        case "@data":
            guard values.isEmpty else { throw malformed("nothing after @data") }
            return true
        default:
            break  // Unknown keyword: ignored.
        }
        return false
    }

    /// The number of dimensions the header declares: `@dimensions`, else 1 for
    /// `@univariate true`, else nil (taken from the first row).
    /// - Throws: ``ImportError`` if `@univariate true` contradicts `@dimensions`.
    func declaredDimensionCount(path: String) throws -> Declared<Int>? {
        if let univariate, univariate.value, let dimensions, dimensions.value != 1 {
            throw ImportError(
                path: path, line: dimensions.line,
                kind: .malformedHeader(
                    keyword: "@dimensions", expected: "1 for a file declared @univariate true",
                    found: String(dimensions.value)))
        }
        if let dimensions { return dimensions }
        if let univariate, univariate.value { return Declared(value: 1, line: univariate.line) }
        return nil
    }
}
