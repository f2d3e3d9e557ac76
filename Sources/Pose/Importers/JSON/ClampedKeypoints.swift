/// The detected keypoints an importer found outside the image and clamped onto its border, and
/// where the first of them was.
///
/// OpenPose (and the ST-GCN Kinetics-skeleton files made from it) can place a joint a few pixels
/// outside the frame it ran on (`y = 482` in a 480-pixel frame); ActionLab clamps such coordinates
/// to [0, 1] (Vision's range). An importer counts them so that the data set's loader can say so,
/// once per source, and record the count in `provenance.json`. Only the kept (most prominent)
/// person of each frame counts, since only it reaches the data; a keypoint counts once even when
/// both of its coordinates were outside.
public struct ClampedKeypoints: Sendable, Equatable {
    /// Detected keypoints with x or y outside [0, 1] after normalization.
    public var count: Int
    /// The first of them, relative to the file or folder imported (a cache entry serves every
    /// path with the same contents): the frame file for OpenPose, the frame (0-based, in frame
    /// order, or Kinetics' `frame_index`), the joint name and its coordinates as read (pixels for
    /// OpenPose, normalized for Kinetics); ``located(at:)`` puts the path in front. Nil when
    /// ``count`` is 0.
    public var first: String?

    /// No clamped keypoint.
    public init(count: Int = 0, first: String? = nil) {
        self.count = count
        self.first = first
    }

    /// The metadata keys a feature-cache entry stores the count under.
    public static let countKey = "clamped_keypoints"
    /// The metadata key of ``first``.
    public static let firstKey = "first_clamped_keypoint"

    /// The facts as feature-cache entry metadata (`clamped_keypoints`, and
    /// `first_clamped_keypoint` when there is one).
    public var metadata: [String: String] {
        var metadata = [Self.countKey: "\(count)"]
        if let first { metadata[Self.firstKey] = first }
        return metadata
    }

    /// Reads the facts back from entry metadata.
    ///
    /// - Parameter metadata: A cache entry's metadata.
    /// - Returns: The facts, or nil when the entry has no (readable) count.
    public init?(metadata: [String: String]) {
        guard let text = metadata[Self.countKey], let count = Int(text), count >= 0 else { return nil }
        self.init(count: count, first: metadata[Self.firstKey])
    }

    /// These facts with the imported file or folder `path` in front of ``first``: `path: first`.
    public func located(at path: String) -> ClampedKeypoints {
        ClampedKeypoints(count: count, first: first.map { "\(path): \($0)" })
    }

    /// Adds the keypoints of `other` (an importer's next file) to these; ``first`` stays the earliest.
    public mutating func add(_ other: ClampedKeypoints) {
        count += other.count
        if first == nil { first = other.first }
    }

    /// Counts one clamped keypoint.
    ///
    /// - Parameter location: Where it is, built only for the first one.
    mutating func record(_ location: @autoclosure () -> String) {
        if count == 0 { first = location() }
        count += 1
    }
}
