import Foundation

/// Imports the UEA/UCR time-series classification archive's `.ts` format.
///
/// The format is the one written by sktime (`write_to_tsfile`, read by `load_from_tsfile`) and
/// published at timeseriesclassification.com. A file is a header of `@keyword value` lines,
/// then `@data`, then one series per line:
///
/// ```
/// # comment lines and blank lines may appear anywhere
/// @problemName BasicMotions
/// @timeStamps false
/// @missing false
/// @univariate false
/// @dimensions 6
/// @equalLength true
/// @seriesLength 100
/// @classLabel true Standing Running Walking Badminton
/// @data
/// 0.079106,0.079106,...:0.394032,0.394032,...:...:Standing
/// ```
///
/// Dimensions are separated by `:`, the values of a dimension by `,`, and with
/// `@classLabel true` the class label comes after the last `:` and must be one of the declared
/// labels. Header keywords (and `true`/`false`) are case-insensitive; unknown keywords are
/// ignored. `@dimensions` defaults to 1 for `@univariate true`, else to the first row's count.
/// `@equalLength true` with `@seriesLength N` requires every dimension to have `N` values
/// (without `@seriesLength`, the first row's length).
///
/// Each row becomes one ``LabeledSequence`` of shape `[T, C, J]` for the layout's `C` channels
/// and `J` joints, where `T` is the row's length. Dimension `d` maps onto the layout
/// joint-major: joint `d / C`, channel `d % C`, so BasicMotions' six dimensions become
/// accelerometer x, y, z and gyroscope x, y, z in ``SkeletonLayout/accelerometerGyroscope``
/// (`[100, 3, 2]`) and GunPoint's one dimension becomes ``SkeletonLayout/univariate``
/// (`[150, 1, 1]`). Step `t` is at `t / frameRate` seconds. A sequence's id is
/// `<path>#<row>` (0-based among data rows) and its group is the same id: each row is its own
/// recording.
///
/// Not supported, and reported as errors naming the file and line: timestamped series
/// (`@timeStamps true`), regression targets (`@targetLabel true`) and missing values (`?`),
/// since ActionLab does not allow NaN.
public struct UEATimeSeriesImporter: SequenceImporter {
    public var name: String { "uea-ts" }
    public var version: Int { 1 }

    /// Creates an importer.
    public init() {}

    /// Reads every series in a `.ts` file.
    ///
    /// - Parameters:
    ///   - url: A `.ts` file.
    ///   - layout: The layout whose `C * J` equals the file's dimension count.
    ///   - frameRate: Steps per second (greater than zero); step `t` is at `t / frameRate` seconds.
    ///   - label: The label of every row of a file declared `@classLabel false`; ignored for files
    ///     whose rows carry their own labels.
    /// - Returns: One sequence per data row, in file order.
    /// - Throws: ``ImportError`` naming the file and 1-based line: a malformed or missing header,
    ///   data before `@data`, a dimension count that differs from the header or the layout, a
    ///   ragged row, a non-numeric, missing (`?`) or non-finite value, an undeclared label, or no
    ///   series at all.
    /// - Precondition: `frameRate` is positive and finite.
    public func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence] {
        precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be a positive number of frames per second")
        let lines = try TextLines(contentsOf: url)
        let path = lines.path
        var remaining = lines.makeIterator()

        var header = UEATimeSeriesHeader()
        var sawHeader = false
        var dataLine: Int?
        while dataLine == nil, let (number, text) = remaining.next() {
            let line = text.trimmingWhitespace()
            if line.isEmpty || line.first == ASCII.hash { continue }
            guard line.first == ASCII.at else {
                throw ImportError(path: path, line: number, kind: .dataBeforeDataSection)
            }
            sawHeader = true
            if try header.apply(line, number: number, path: path) { dataLine = number }
        }
        guard sawHeader else { throw ImportError(path: path, line: nil, kind: .emptyFile) }
        guard let dataLine else { throw ImportError(path: path, line: nil, kind: .missingDataSection) }
        guard let classLabels = header.classLabels else {
            throw ImportError(path: path, line: dataLine, kind: .missingHeader(keyword: "@classLabel"))
        }
        let labels: RowParser.Labels
        if let declared = classLabels.value {
            labels = .perRow(declared: declared)
        } else if let label {
            labels = .fixed(label)
        } else {
            throw ImportError(path: path, line: classLabels.line, kind: .missingLabel)
        }

        var rows = RowParser(
            path: path, layout: layout, frameRate: frameRate, labels: labels,
            fixedLength: header.equalLength ? header.seriesLength : nil,
            equalLength: header.equalLength)
        if let dimensions = try header.declaredDimensionCount(path: path) {
            try rows.expectDimensions(dimensions.value, line: dimensions.line)
        }
        var sequences: [LabeledSequence] = []
        while let (number, text) = remaining.next() {
            let line = text.trimmingWhitespace()
            if line.isEmpty || line.first == ASCII.hash { continue }
            if line.first == ASCII.at {
                throw ImportError(
                    path: path, line: number,
                    kind: .malformedHeader(
                        keyword: "@data", expected: "only series rows after @data", found: line.text))
            }
            sequences.append(try rows.parse(line, number: number, rowIndex: sequences.count))
        }
        guard !sequences.isEmpty else { throw ImportError(path: path, line: nil, kind: .noData) }
        return sequences
    }
}

/// Turns the data rows of one `.ts` file into sequences, remembering what the first row fixed.
private struct RowParser {
    let path: String
    let layout: SkeletonLayout
    let frameRate: Double
    /// Where a row's class label comes from.
    enum Labels {
        /// After the row's last `:`, one of the labels of `@classLabel true`.
        case perRow(declared: [String])
        /// The caller's label, for `@classLabel false`.
        case fixed(String)

        var isPerRow: Bool {
            if case .perRow = self { return true }
            return false
        }
    }

    let labels: Labels
    /// The length every dimension must have: `@seriesLength`, or the first row's for
    /// `@equalLength true` without it; nil when lengths may vary between rows.
    var fixedLength: Int?
    let equalLength: Bool
    /// The dimension count from the header, or the first row's.
    var dimensionCount: Int?

    init(path: String, layout: SkeletonLayout, frameRate: Double, labels: Labels, fixedLength: Int?, equalLength: Bool) {
        self.path = path
        self.layout = layout
        self.frameRate = frameRate
        self.labels = labels
        self.fixedLength = fixedLength
        self.equalLength = equalLength
    }

    /// Fixes the dimension count, checking it against the layout.
    mutating func expectDimensions(_ count: Int, line: Int) throws {
        let needed = layout.channelCount * layout.jointCount
        guard count == needed else {
            throw ImportError(
                path: path, line: line,
                kind: .layoutMismatch(layout: layout.name, expectedDimensions: needed, foundDimensions: count))
        }
        dimensionCount = count
    }

    /// Parses one data row (already trimmed, not blank or a comment).
    mutating func parse(_ line: ArraySlice<UInt8>, number: Int, rowIndex: Int) throws -> LabeledSequence {
        // With per-row labels, the label is the field after the last ':'.
        var dimensions = line.fields(separatedBy: ASCII.colon)
        let labelFieldCount = labels.isPerRow ? 1 : 0
        let foundDimensions = dimensions.count - labelFieldCount
        if let dimensionCount {
            guard foundDimensions == dimensionCount else {
                throw ImportError(
                    path: path, line: number,
                    kind: .wrongDimensionCount(expected: dimensionCount, found: foundDimensions))
            }
        } else {
            try expectDimensions(foundDimensions, line: number)
        }
        let label: String
        switch labels {
        case let .perRow(declared):
            let found = dimensions.removeLast().trimmingWhitespace().text
            guard declared.contains(found) else {
                throw ImportError(path: path, line: number, kind: .undeclaredLabel(found: found, declared: declared))
            }
            label = found
        case let .fixed(fixed):
            label = fixed
        }

        let sampleID = "\(path)#\(rowIndex)"
        let channels = layout.channelCount, joints = layout.jointCount
        var keypoints: [Float] = []
        var length = 0
        for (dimension, field) in dimensions.enumerated() {
            let values = field.fields(separatedBy: ASCII.comma)
            if dimension == 0 {
                length = values.count
                if let fixedLength, length != fixedLength {
                    throw ImportError(
                        path: path, line: number,
                        kind: .raggedRow(dimension: 0, expectedLength: fixedLength, foundLength: length))
                }
                if equalLength { fixedLength = length }
                keypoints = [Float](repeating: 0, count: length * channels * joints)
            } else if values.count != length {
                throw ImportError(
                    path: path, line: number,
                    kind: .raggedRow(dimension: dimension, expectedLength: length, foundLength: values.count))
            }
            // Joint-major: dimension d is channel d % C of joint d / C, at [(t * C + c) * J + j].
            let joint = dimension / channels, channel = dimension % channels
            for (step, token) in values.enumerated() {
                let location = ImportError.ValueLocation.series(dimension: dimension, position: step)
                if token.trimmingWhitespace().elementsEqual(CollectionOfOne(ASCII.questionMark)) {
                    throw ImportError(path: path, line: number, kind: .missingValue(sampleID: sampleID, location: location))
                }
                keypoints[(step * channels + channel) * joints + joint] =
                    try token.parseFinite(Float.self, sampleID: sampleID, location: location, path: path, line: number)
            }
        }
        let sequence = PoseSequence(
            keypoints: keypoints,
            timestamps: PoseSequence.uniformTimestamps(frameCount: length, frameRate: frameRate),
            channelCount: channels, jointCount: joints, frameRate: frameRate)
        return LabeledSequence(id: sampleID, label: label, group: sampleID, sequence: sequence)
    }
}
