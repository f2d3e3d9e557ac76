/// One data source as provenance records it.
///
/// ``splits`` records the split's membership: which of the file's recordings (sequence groups:
/// the file itself for a CSV or Kinetics file, the clip folder for OpenPose, each series of a UEA
/// file, the video of a montage) went to which split. For a training file with an automatic
/// validation split (`dataset.validation.strategy: "automatic"`) that is where ``ValidationSplit``
/// put each recording: `{"train": [...], "validation": [...]}`; for a file of the other roles all
/// of its recordings are under its role. Recordings whose every sequence `dataset.labels` dropped
/// are under `dropped`.
public struct DataSourceRecord: Codable, Sendable, Equatable {
    /// Which part of the dataset the file was listed for: `train`, `validation` or `test`.
    public var role: String
    /// Absolute path of the source file.
    public var path: String
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String
    /// The feature-cache key the sequences were stored under.
    public var cacheKey: String
    /// Number of sequences imported from the file.
    public var sequences: Int
    /// The file's recordings (sequence groups) by the split they went to (`train`, `validation`,
    /// `test`, or `dropped`), each list sorted; splits without any of them are absent. nil in
    /// files written before it was recorded.
    public var splits: [String: [String]]?
    /// Detected keypoints outside the stated image that the importer clamped onto its border
    /// (`ClampedKeypoints`); nil for formats that do not clamp (or a cache entry that did not
    /// record it).
    public var clampedKeypoints: Int?

    public init(
        role: String, path: String, sha256: String, cacheKey: String, sequences: Int, splits: [String: [String]]? = nil,
        clampedKeypoints: Int? = nil
    ) {
        self.role = role
        self.path = path
        self.sha256 = sha256
        self.cacheKey = cacheKey
        self.sequences = sequences
        self.splits = splits
        self.clampedKeypoints = clampedKeypoints
    }

    enum CodingKeys: String, CodingKey {
        case role, path, sha256, cacheKey = "cache_key", sequences, splits, clampedKeypoints = "clamped_keypoints"
    }
}
