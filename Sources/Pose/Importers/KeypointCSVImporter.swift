import Foundation

/// Imports keypoints from a plain CSV file with one row per frame.
///
/// The format (also described in `KeypointCSVFormat.md` beside this file):
///
/// ```
/// timestamp,nose.x,nose.y,nose.confidence,neck.x,neck.y,neck.confidence,...
/// 0.0,0.51,0.83,0.97,0.50,0.74,0.95,...
/// 0.033,0.52,0.83,0.96,0.50,0.74,0.94,...
/// ```
///
/// - The first line is a header naming each column. Fields are separated by `,` and are not
///   quoted; spaces around a field are ignored, as are blank lines, Windows line ends and a UTF-8
///   byte order mark.
/// - An optional `timestamp` column gives each frame's time in seconds; timestamps must strictly
///   increase and are shifted so that the first frame is at 0. Without it, frame `i` is at
///   `i / frameRate` seconds. Two consecutive timestamps may be at most
///   `PoseSequence.maximumFramesPerGap` (1,000,000) frames apart at `frameRate`: a larger gap is
///   a wrong timestamp, which resampling would fill with frames.
/// - Every other column is named `<joint>.<channel>` after the layout's joint and channel names
///   (`nose.x`, `nose.y`, `nose.confidence`). Columns may come in any order but must cover the
///   layout's joints x channels exactly, once each.
/// - Values are decimal numbers and must be finite. For body-pose layouts x and y are
///   normalized image coordinates (origin at the lower left) and an undetected joint is
///   `0, 0, 0`, as Vision pads.
///
/// The file holds one sequence of shape `[T, C, J]` whose id and group are the file's path. The
/// label comes from the caller (in a labeled directory, the folder name; see
/// ``LabeledDirectory``). ``KeypointCSVWriter`` writes the same format.
public struct KeypointCSVImporter: SequenceImporter {
    public var name: String { "keypoint-csv" }
    public var version: Int { 1 }

    /// The name of the optional timestamp column.
    public static let timestampColumn = "timestamp"

    /// Creates an importer.
    public init() {}

    /// The column name of one channel of one joint: `<joint>.<channel>`.
    public static func columnName(joint: String, channel: String) -> String {
        "\(joint).\(channel)"
    }

    /// Reads the one sequence in a keypoint CSV file.
    ///
    /// - Parameters:
    ///   - url: A `.csv` file.
    ///   - layout: The layout whose joints x channels the columns cover.
    ///   - frameRate: Frames per second (greater than zero): the frame spacing when the file has no
    ///     `timestamp` column, and the sequence's nominal frame rate either way.
    ///   - label: The sequence's class label; required, since the file carries none.
    /// - Returns: One sequence of shape `[T, C, J]`.
    /// - Throws: ``ImportError`` naming the file and 1-based line: a missing label, columns that
    ///   do not match the layout, a row with the wrong field count, a non-numeric or non-finite
    ///   value, a timestamp that does not increase, or no data rows.
    /// - Precondition: `frameRate` is positive and finite.
    public func importSequences(from url: URL, layout: SkeletonLayout, frameRate: Double, label: String?) throws -> [LabeledSequence] {
        precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be a positive number of frames per second")
        guard let label else { throw ImportError(path: url.path, line: nil, kind: .missingLabel) }
        let lines = try TextLines(contentsOf: url)
        let path = lines.path
        var remaining = lines.makeIterator()

        var columns: Columns?
        while columns == nil, let (number, text) = remaining.next() {
            if text.isBlank { continue }
            columns = try Columns(header: text, layout: layout, path: path, line: number)
        }
        guard let columns else { throw ImportError(path: path, line: nil, kind: .emptyFile) }

        var keypoints: [Float] = []
        var timestamps: [Double] = []
        var frame = 0
        while let (number, text) = remaining.next() {
            if text.isBlank { continue }
            let fields = text.fields(separatedBy: ASCII.comma)
            guard fields.count == columns.names.count else {
                throw ImportError(
                    path: path, line: number,
                    kind: .wrongFieldCount(expected: columns.names.count, found: fields.count))
            }
            let frameStart = keypoints.count
            keypoints.append(contentsOf: repeatElement(0, count: layout.channelCount * layout.jointCount))
            for (column, field) in zip(columns.names.indices, fields) {
                let location = ImportError.ValueLocation.column(name: columns.names[column], frame: frame)
                if let offset = columns.valueOffsets[column] {
                    keypoints[frameStart + offset] = try field.parseFinite(
                        Float.self, sampleID: path, location: location, path: path, line: number)
                } else {
                    let time = try field.parseFinite(Double.self, sampleID: path, location: location, path: path, line: number)
                    if let previous = timestamps.last, time <= previous {
                        throw ImportError(
                            path: path, line: number,
                            kind: .nonIncreasingTimestamp(previous: previous, found: time))
                    }
                    if let previous = timestamps.last,
                       let frames = PoseSequence.framesOfGapTooLong(seconds: time - previous, at: frameRate) {
                        throw ImportError(path: path, line: number, kind: .timestampGapTooLong(previous: previous, found: time, frames: frames))
                    }
                    timestamps.append(time)
                }
            }
            frame += 1
        }
        guard frame > 0 else { throw ImportError(path: path, line: nil, kind: .noData) }

        if let start = timestamps.first {
            timestamps = timestamps.map { $0 - start }
        } else {
            timestamps = PoseSequence.uniformTimestamps(frameCount: frame, frameRate: frameRate)
        }
        let sequence = PoseSequence(
            keypoints: keypoints, timestamps: timestamps,
            channelCount: layout.channelCount, jointCount: layout.jointCount, frameRate: frameRate)
        return [LabeledSequence(id: path, label: label, group: path, sequence: sequence)]
    }
}

/// The header of a keypoint CSV file, resolved against a layout.
private struct Columns {
    /// Column names as written.
    var names: [String]
    /// For each column, the offset `c * J + j` of its value within a frame, or nil for the
    /// timestamp column.
    var valueOffsets: [Int?]

    /// Resolves the header row.
    /// - Throws: ``ImportError`` `.columnMismatch` listing missing, unknown and repeated columns.
    init(header: ArraySlice<UInt8>, layout: SkeletonLayout, path: String, line: Int) throws {
        var offsetByName: [String: Int] = [:]
        var expected: [String] = []
        for (joint, jointName) in layout.joints.enumerated() {
            for (channel, channelName) in layout.channels.enumerated() {
                let name = KeypointCSVImporter.columnName(joint: jointName, channel: channelName)
                offsetByName[name] = channel * layout.jointCount + joint
                expected.append(name)
            }
        }

        names = header.fields(separatedBy: ASCII.comma).map { $0.trimmingWhitespace().text }
        valueOffsets = []
        var seen: Set<String> = []
        var unknown: [String] = [], duplicated: [String] = []
        for name in names {
            if !seen.insert(name).inserted {
                duplicated.append(name)
            } else if name != KeypointCSVImporter.timestampColumn && offsetByName[name] == nil {
                unknown.append(name)
            }
            valueOffsets.append(offsetByName[name])
        }
        let missing = expected.filter { !seen.contains($0) }
        guard missing.isEmpty, unknown.isEmpty, duplicated.isEmpty else {
            throw ImportError(
                path: path, line: line,
                kind: .columnMismatch(layout: layout.name, missing: missing, unknown: unknown, duplicated: duplicated))
        }
    }
}
