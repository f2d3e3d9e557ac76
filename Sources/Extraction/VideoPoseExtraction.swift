import FeatureCache
import Foundation
import Pose

/// The poses of one video or picture: a ``SkeletonLayout/vision18`` sequence at the video's own
/// frame times, how many people each frame showed, and what the file's headers say.
///
/// This is what the feature cache stores per video (``cacheContents``) and what
/// ``init(entry:)`` reads back; `actionlab check` reports on it.
public struct VideoPoseExtraction: Sendable, Equatable {
    /// `[T, 3, 18]` keypoints in Vision's convention (x, y normalized to the displayed frame,
    /// origin at the lower left; (0, 0, 0) for a joint not found or a frame without a person),
    /// with timestamps in seconds from the first displayed frame. Its `frameRate` is the video's
    /// nominal frame rate, capped at the extraction rate.
    public var sequence: PoseSequence
    /// The number of people the estimator found in each frame, `[T]` (at most `numPoses`).
    public var personCounts: [Int]
    /// The video's nominal frame rate in frames per second (headers), nil when it states none.
    public var nominalFrameRate: Double?
    /// The duration in seconds of the displayed frames: the last decoded frame's time from the
    /// first, plus one frame (`VideoPoseExtractor.displayedDuration`); the time sample ranges are measured on.
    public var duration: Double
    /// The displayed width in pixels (after rotation).
    public var width: Int
    /// The displayed height in pixels (after rotation).
    public var height: Int
    /// The rotation in degrees (0, 90, 180, 270) applied to stored frames for display.
    public var rotation: Int
    /// The codec's short name (`h264`, `mjpeg`).
    public var codec: String
    /// Times (seconds from the first displayed frame) of the frames where the followed person was
    /// not found among the people present and another was followed from then on
    /// (``PersonTracker/losses``); empty for a clip of one person throughout.
    public var personLosses: [Double] = []

    /// Creates an extraction result.
    public init(
        sequence: PoseSequence, personCounts: [Int], nominalFrameRate: Double?, duration: Double, width: Int, height: Int,
        rotation: Int, codec: String, personLosses: [Double] = []
    ) {
        self.sequence = sequence
        self.personCounts = personCounts
        self.nominalFrameRate = nominalFrameRate
        self.duration = duration
        self.width = width
        self.height = height
        self.rotation = rotation
        self.codec = codec
        self.personLosses = personLosses
    }

    /// The cache's view: one sequence (id and group the file's path, no label: labels come from
    /// the dataset, so one extraction serves every dataset that uses the file), its person
    /// counts, and the header facts as metadata `frame_rate`, `duration`, `width`, `height`,
    /// `rotation`, `codec`, and `person_lost_at` (``personLosses``, comma-separated) when not empty.
    public func cacheContents(path: String) -> ImportedContents {
        var metadata = [
            "duration": "\(duration)", "width": "\(width)", "height": "\(height)", "rotation": "\(rotation)", "codec": codec,
        ]
        if let nominalFrameRate { metadata["frame_rate"] = "\(nominalFrameRate)" }
        if !personLosses.isEmpty { metadata["person_lost_at"] = personLosses.map { "\($0)" }.joined(separator: ",") }
        return ImportedContents(
            sequences: [LabeledSequence(id: path, label: "", group: path, sequence: sequence)], metadata: metadata,
            personCounts: [personCounts])
    }

    /// Reads an extraction back from a cache entry written from ``cacheContents(path:)``.
    /// - Returns: nil when the entry does not hold one sequence with person counts.
    public init?(entry: CacheEntry) {
        guard entry.sequences.count == 1, let sequence = entry.sequences.first?.sequence,
            let counts = entry.personCounts.first, counts.count == sequence.frameCount
        else { return nil }
        let metadata = entry.metadata
        func number(_ key: String) -> Double? { metadata[key].flatMap(Double.init) }
        self.init(
            sequence: sequence, personCounts: counts, nominalFrameRate: number("frame_rate"),
            duration: number("duration") ?? sequence.timestamps.last ?? 0, width: metadata["width"].flatMap { Int($0) } ?? 0,
            height: metadata["height"].flatMap { Int($0) } ?? 0, rotation: metadata["rotation"].flatMap { Int($0) } ?? 0,
            codec: metadata["codec"] ?? "",
            personLosses: (metadata["person_lost_at"] ?? "").split(separator: ",").compactMap { Double($0) })
    }
}
