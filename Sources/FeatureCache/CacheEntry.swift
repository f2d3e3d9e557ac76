import ContentHashing
import Foundation
import Pose

/// One cached import: the pose sequences read from one source file, with where they came from.
///
/// ## File layout
///
/// An entry is one HDF5 file, `<cache directory>/<key[0..<2]>/<key>.h5`
/// (format `actionlab-feature-cache`, version 1), whose first 512 bytes are a checksum header in
/// the HDF5 user block: the SHA-256 and length of the rest of the file, verified before HDF5
/// parses it (`Sources/FeatureCache/FeatureCache.docc/CacheLayout.md` shows the text).
///
/// Root attributes:
/// - `format` (string): `"actionlab-feature-cache"`.
/// - `format_version` (int64): `1`.
/// - `key` (string): the ``CacheKey``, 64 lowercase hex digits; equals the file name.
/// - `source_path` (string): the source file's path when imported (informational only).
/// - `source_sha256` (string): SHA-256 of the source file's bytes, lowercase hex.
/// - `importer` (string), `importer_version` (string): what imported it.
/// - `fingerprint` (string): ``ImporterFingerprint/canonicalString``;
///   `key = sha256(source_sha256 + "\n" + fingerprint)`.
/// - `layout` (string): the skeleton layout's name (`vision18`).
/// - `frame_rate` (float64): frames per second.
/// - `created` (string): ISO 8601 UTC time of import, whole seconds (`2025-01-31T12:00:00Z`).
/// - `sequence_count` (int64): the number of groups under `/sequences`.
/// - `metadata` (string, optional): a JSON object of string values the importer recorded about
///   the source (a video's frame rate, size and rotation, for example); absent when empty.
///
/// Group `/sequences` holds one group per sequence, named by its index as six zero-padded digits
/// (`000000`, `000001`, ...), so lexicographic order is numeric order. Each has:
/// - dataset `keypoints`: float32 `[T, C, J]` (time, channel, joint), gzip-compressed when large.
/// - dataset `timestamps`: float64 `[T]`, seconds from the sequence's first frame.
/// - attributes `id`, `label`, `group` (strings) and `frame_rate` (float64).
/// - dataset `person_counts` (optional): int64 `[T]`, the number of people the pose estimator
///   found in each frame (before the most prominent one was kept); written by video extraction.
///
/// Reading checks the checksum header, then `format`, `format_version`, `key` against
/// `source_sha256` and `fingerprint`, `sequence_count`, every shape, and that every value read
/// is finite. `Sources/FeatureCache/CacheLayout.md` shows the same
/// layout with an h5py example.
public struct CacheEntry: Sendable, Equatable {
    /// The value of the root `format` attribute.
    public static let format = "actionlab-feature-cache"
    /// The layout version written and read by this code.
    public static let formatVersion: Int64 = 1

    /// The entry's key, derived from ``sourceHash`` and ``fingerprint``.
    public let key: CacheKey
    /// The source file's path at import time; informational, not part of the key.
    public var sourcePath: String
    /// SHA-256 of the source file's bytes.
    public let sourceHash: ContentHash
    /// The importer's name.
    public let importer: String
    /// The importer's version.
    public let importerVersion: String
    /// The canonical fingerprint text hashed into ``key``.
    public let fingerprint: String
    /// The skeleton layout's name.
    public var layoutName: String
    /// Frames per second of the imported sequences.
    public var frameRate: Double
    /// When the sequences were imported, to whole seconds (the stored precision).
    public var created: Date
    /// The imported sequences, in importer order.
    public var sequences: [LabeledSequence]
    /// Facts the importer recorded about the source, such as a video's `frame_rate`, `width`,
    /// `height` and `rotation` (the ``VideoPoseExtractor`` keys); empty for most importers.
    public var metadata: [String: String] = [:]
    /// For each sequence, the number of people found per frame (`[T]`), or empty when the
    /// importer did not count people (keypoint files). Either empty or one array per sequence.
    public var personCounts: [[Int]] = []

    /// Creates an entry; its key is computed from `sourceHash` and `fingerprint`.
    /// - Parameters:
    ///   - sourcePath: where the source file was read from.
    ///   - sourceHash: SHA-256 of its bytes.
    ///   - fingerprint: the importer and settings that produced `sequences`.
    ///   - layoutName: the skeleton layout's name.
    ///   - frameRate: frames per second.
    ///   - created: import time, truncated to whole seconds.
    ///   - sequences: the imported sequences.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if hashing the key fails.
    public init(
        sourcePath: String, sourceHash: ContentHash, fingerprint: ImporterFingerprint, layoutName: String,
        frameRate: Double, created: Date = Date(), sequences: [LabeledSequence]
    ) throws {
        try self.init(
            sourcePath: sourcePath, sourceHash: sourceHash, importer: fingerprint.importer,
            importerVersion: fingerprint.version, fingerprint: fingerprint.canonicalString, layoutName: layoutName,
            frameRate: frameRate, created: created, sequences: sequences)
    }

    /// Creates an entry from stored fields; its key is computed from `sourceHash` and `fingerprint`.
    init(
        sourcePath: String, sourceHash: ContentHash, importer: String, importerVersion: String, fingerprint: String,
        layoutName: String, frameRate: Double, created: Date, sequences: [LabeledSequence]
    ) throws {
        key = try CacheKey(source: sourceHash, fingerprint: fingerprint)
        self.sourcePath = sourcePath
        self.sourceHash = sourceHash
        self.importer = importer
        self.importerVersion = importerVersion
        self.fingerprint = fingerprint
        self.layoutName = layoutName
        self.frameRate = frameRate
        self.created = Date(timeIntervalSince1970: (created.timeIntervalSince1970).rounded(.down))
        self.sequences = sequences
    }
}
