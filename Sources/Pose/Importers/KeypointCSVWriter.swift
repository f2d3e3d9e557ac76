import Foundation

/// Writes a pose sequence in the keypoint CSV format that ``KeypointCSVImporter`` reads.
///
/// Columns are written joint-major (`nose.x,nose.y,nose.confidence,neck.x,...`), optionally
/// preceded by `timestamp` in seconds. Values are written in Swift's shortest round-trip decimal
/// form, so reading the file back gives bit-identical Float32 keypoints and Float64 timestamps.
public struct KeypointCSVWriter: Sendable {
    /// Whether to write the `timestamp` column.
    public var includesTimestamps: Bool

    /// Creates a writer.
    /// - Parameter includesTimestamps: Whether to write a `timestamp` column (seconds). Without
    ///   it, a reader places frame `i` at `i / frameRate`.
    public init(includesTimestamps: Bool = true) {
        self.includesTimestamps = includesTimestamps
    }

    /// The CSV text of `sequence`: a header row, then one row per frame, each ending in `\n`.
    /// - Precondition: `sequence` has `layout`'s channel and joint counts.
    public func text(for sequence: PoseSequence, layout: SkeletonLayout) -> String {
        precondition(
            sequence.channelCount == layout.channelCount && sequence.jointCount == layout.jointCount,
            "sequence shape [T, \(sequence.channelCount), \(sequence.jointCount)] does not match layout '\(layout.name)'")
        var header: [String] = includesTimestamps ? [KeypointCSVImporter.timestampColumn] : []
        for joint in layout.joints {
            for channel in layout.channels {
                header.append(KeypointCSVImporter.columnName(joint: joint, channel: channel))
            }
        }
        var text = header.joined(separator: ",") + "\n"
        for frame in 0..<sequence.frameCount {
            var fields: [String] = includesTimestamps ? [sequence.timestamps[frame].description] : []
            for joint in 0..<layout.jointCount {
                for channel in 0..<layout.channelCount {
                    fields.append(sequence[frame, channel, joint].description)
                }
            }
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Writes `sequence` to `url` atomically (to a temporary file that is renamed into place).
    /// - Throws: The file system's error if the file cannot be written.
    public func write(_ sequence: PoseSequence, layout: SkeletonLayout, to url: URL) throws {
        try Data(text(for: sequence, layout: layout).utf8).write(to: url, options: .atomic)
    }
}
