/// A problem with one input file, naming the file, the 1-based line and what was expected versus
/// what was found.
///
/// Importers throw this for every problem with their input, so that the caller can fail that file
/// (and only that file) with a message a user can act on. ``description`` renders it as
/// `path:line: message`, the form compilers and editors understand.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or directory) that could not be imported, as a path.
    public var path: String
    /// The 1-based line the problem is on, or nil when it concerns the whole file (an empty file,
    /// a missing section, an unreadable file).
    public var line: Int?
    /// What went wrong, with the expected and found values.
    public var kind: Kind

    /// Creates an error.
    public init(path: String, line: Int?, kind: Kind) {
        self.path = path
        self.line = line
        self.kind = kind
    }

    /// Where a value sits in the file, for errors about a single value.
    public enum ValueLocation: Sendable, Equatable, CustomStringConvertible {
        /// A value of a UEA/UCR series: 0-based dimension and 0-based time step within it.
        case series(dimension: Int, position: Int)
        /// A field of a CSV row: the column's header name and the 0-based frame (data row).
        case column(name: String, frame: Int)
        /// An element of a MATLAB variable: its name, its axes in its own dimension order
        /// (`["J", "C", "T"]`) and the 0-based subscripts in that order.
        case element(variable: String, axes: [String], subscripts: [Int])

        /// The location in words: `dimension 2, position 17` or `column 'nose.x', frame 3`.
        public var description: String {
            switch self {
            case let .series(dimension, position): "dimension \(dimension), position \(position)"
            case let .column(name, frame): "column '\(name)', frame \(frame)"
            case let .element(variable, axes, subscripts):
                "variable '\(variable)' index [\(zip(axes, subscripts).map { "\($0) \($1)" }.joined(separator: ", "))] "
                    + "(0-based; MATLAB \(variable)(\(subscripts.map { String($0 + 1) }.joined(separator: ","))))"
            }
        }
    }

    /// The kinds of import problems.
    public enum Kind: Sendable, Equatable {
        /// The file could not be read or listed; `reason` is the system's message.
        case unreadable(reason: String)
        /// The file holds no header and no data (only blank or comment lines, or nothing).
        case emptyFile
        /// A header line is malformed: `keyword` is the header keyword (`@seriesLength`, or
        /// `header` for a CSV header row).
        case malformedHeader(keyword: String, expected: String, found: String)
        /// A header required by the format is absent.
        case missingHeader(keyword: String)
        /// The file uses a feature of its format that ActionLab does not support.
        case unsupported(feature: String)
        /// A UEA/UCR file ended without an `@data` line.
        case missingDataSection
        /// A data row appeared before the UEA/UCR `@data` line.
        case dataBeforeDataSection
        /// The file's dimension count does not match the skeleton layout's `C * J`.
        case layoutMismatch(layout: String, expectedDimensions: Int, foundDimensions: Int)
        /// A UEA/UCR row has a different number of dimensions than the header (or the first row) declares.
        case wrongDimensionCount(expected: Int, found: Int)
        /// Dimension `dimension` (0-based) of a UEA/UCR row has a different length than
        /// expected: the row's first dimension, or `@seriesLength` when `@equalLength true`.
        case raggedRow(dimension: Int, expectedLength: Int, foundLength: Int)
        /// A CSV row has a different number of fields than the header.
        case wrongFieldCount(expected: Int, found: Int)
        /// A field is not a decimal number; `token` is the field as written.
        case nonNumeric(token: String, location: ValueLocation)
        /// A value is NaN or infinite (or overflows Float32), which ActionLab does not allow.
        case nonFiniteValue(sampleID: String, token: String, location: ValueLocation)
        /// A value is marked missing (`?` in the UEA/UCR format), which ActionLab does not allow.
        case missingValue(sampleID: String, location: ValueLocation)
        /// A row's class label is not one of the labels the header declares.
        case undeclaredLabel(found: String, declared: [String])
        /// The file carries no class label and the caller passed none.
        case missingLabel
        /// CSV header columns do not cover the layout's joints x channels exactly.
        case columnMismatch(layout: String, missing: [String], unknown: [String], duplicated: [String])
        /// A timestamp is not greater than the previous one (seconds).
        case nonIncreasingTimestamp(previous: Double, found: Double)
        /// A timestamp is so far after the previous one (seconds) that resampling the gap at the
        /// file's frame rate would fill `frames` frames, more than `PoseSequence.maximumFramesPerGap`.
        case timestampGapTooLong(previous: Double, found: Double, frames: Double)
        /// The file has a header but no sequences or frames.
        case noData
        /// A JSON file is not valid JSON; `reason` is the parser's message.
        case invalidJSON(reason: String)
        /// A MATLAB file has no variable of that name; `present` lists the variables it has.
        case noSuchVariable(variable: String, present: [String])
        /// A MATLAB variable is not a real numeric array (cell, struct, char, sparse, complex ...);
        /// `found` describes it (`1×2 cell`).
        case unsupportedVariable(variable: String, found: String)
        /// A MATLAB variable does not have one dimension per axis; `axes` are the stated axes.
        case wrongRank(variable: String, axes: [String], dimensions: [Int])
        /// A MATLAB variable's dimension along `axis` (`J` or `C`) differs from the layout's count.
        case dimensionMismatch(variable: String, axes: [String], dimensions: [Int], axis: String, layout: String, expected: Int)
        /// A JSON value has the wrong type or size; `jsonPath` locates it (`$.data[3].skeleton[0].pose`).
        case unexpectedJSON(jsonPath: String, expected: String, found: String)
    }

    /// Column names as they may be shown on a terminal: the first 10 (and how many more), each
    /// cut to 40 characters, a name holding control characters (a binary file read as CSV)
    /// written with Swift's escapes (`"y\u{06}U"`) instead of the raw bytes.
    static func columnList(_ names: [String]) -> String {
        let shown = names.prefix(10).map { name -> String in
            let cut = name.count > 40 ? String(name.prefix(40)) + "…" : name
            return cut.unicodeScalars.contains { $0.properties.generalCategory == .control } ? cut.debugDescription : cut
        }
        return shown.joined(separator: ", ") + (names.count > 10 ? " and \(names.count - 10) more" : "")
    }

    /// The error as `path:line: message` (or `path: message` without a line).
    public var description: String {
        let location = line.map { "\(path):\($0)" } ?? path
        return "\(location): \(message)"
    }

    /// The problem in words, without its location: what was expected and what was found.
    public var message: String {
        switch kind {
        case let .unreadable(reason):
            return "cannot read: \(reason)"
        case .emptyFile:
            return "the file is empty: expected a header and data, found nothing"
        case let .malformedHeader(keyword, expected, found):
            return "malformed \(keyword): expected \(expected), found '\(found)'"
        case let .missingHeader(keyword):
            return "missing header \(keyword): the format requires it before the data"
        case let .unsupported(feature):
            return "not supported: \(feature)"
        case .missingDataSection:
            return "no @data line: expected the header to end with @data, followed by one series per line"
        case .dataBeforeDataSection:
            return "expected a header line starting with '@' (or a comment), found data before @data"
        case let .layoutMismatch(layout, expected, found):
            return "layout '\(layout)' needs \(expected) dimensions (channels x joints), the file has \(found)"
        case let .wrongDimensionCount(expected, found):
            return "expected \(expected) dimensions separated by ':', found \(found)"
        case let .raggedRow(dimension, expected, found):
            return "ragged row: expected \(expected) values in dimension \(dimension), found \(found)"
        case let .wrongFieldCount(expected, found):
            return "expected \(expected) comma-separated fields (one per header column), found \(found)"
        case let .nonNumeric(token, location):
            return "expected a number at \(location), found '\(token)'"
        case let .nonFiniteValue(sampleID, token, location):
            return "sample '\(sampleID)': value '\(token)' at \(location) is NaN or infinite in Float32; "
                + "ActionLab needs finite values"
        case let .missingValue(sampleID, location):
            return "sample '\(sampleID)': missing value '?' at \(location); ActionLab does not allow "
                + "missing values (NaN), fill or drop the series first (README, 'Manifest reference', format \"uea\")"
        case let .undeclaredLabel(found, declared):
            return "class label '\(found)' is not declared in @classLabel (\(declared.joined(separator: " ")))"
        case .missingLabel:
            return "the file carries no class label: pass one (for a labeled directory, the folder name)"
        case let .columnMismatch(layout, missing, unknown, duplicated):
            var parts: [String] = []
            if !missing.isEmpty { parts.append("missing \(missing.joined(separator: ", "))") }
            if !unknown.isEmpty { parts.append("unknown \(Self.columnList(unknown))") }
            if !duplicated.isEmpty { parts.append("repeated \(Self.columnList(duplicated))") }
            return "columns do not match layout '\(layout)' (expected one '<joint>.<channel>' column per "
                + "joint and channel, plus an optional 'timestamp'): \(parts.joined(separator: "; "))"
        case let .nonIncreasingTimestamp(previous, found):
            return "timestamps must increase: expected more than \(previous) s, found \(found) s"
        case let .timestampGapTooLong(previous, found, frames):
            return "timestamp \(found) s is too far after the previous one (\(previous) s): resampling the gap would fill "
                + "\(frames) frames, more than \(PoseSequence.maximumFramesPerGap); check the timestamp column (seconds)"
        case .noData:
            return "no data: expected at least one data row after the header"
        case let .invalidJSON(reason):
            return "not valid JSON: \(reason)"
        case let .unexpectedJSON(jsonPath, expected, found):
            return "\(jsonPath): expected \(expected), found \(found)"
        case let .noSuchVariable(variable, present):
            let names = present.isEmpty ? "none" : present.map { "'\($0)'" }.joined(separator: ", ")
            return "no variable '\(variable)' in the MAT-file; the variables present are: \(names)"
        case let .unsupportedVariable(variable, found):
            return "variable '\(variable)': expected a real numeric array, found \(found)"
        case let .wrongRank(variable, axes, dimensions):
            return "variable '\(variable)': expected 3 dimensions (\(axes.joined(separator: ", "))), found \(dimensions.count) "
                + "(\(Self.size(dimensions))); MATLAB drops trailing singleton dimensions, so a one-frame recording has 2"
        case let .dimensionMismatch(variable, axes, dimensions, axis, layout, expected):
            let position = axes.firstIndex(of: axis) ?? 0
            let noun = axis == "J" ? "joints" : "channels"
            return "variable '\(variable)' is \(Self.size(dimensions)) (\(axes.joined(separator: " × "))): expected \(expected) "
                + "\(noun) (layout '\(layout)') along dimension \(position + 1) (\(axis)), found \(dimensions[position])"
        }
    }

    /// Dimensions as MATLAB writes a size: `20×3×48`.
    private static func size(_ dimensions: [Int]) -> String {
        dimensions.map(String.init).joined(separator: "×")
    }
}
