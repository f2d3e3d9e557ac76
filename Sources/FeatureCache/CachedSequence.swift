import Foundation
import HDF5
import Pose

/// A sequence stored in a feature-cache entry, described without its keypoints: what training
/// needs to plan windows, and where to read the frames when a batch needs them.
///
/// Made by ``FeatureCache/sequenceIndex(source:fingerprint:layoutName:frameRate:importer:)``
/// (or ``CacheEntry/index(contentsOf:)``); ``read()`` loads the keypoints of this one sequence
/// (one group of the entry, `/sequences/<index>`), so a data set far larger than memory can be
/// trained on by reading sequences on demand.
public struct CachedSequence: Sendable, Hashable {
    /// The entry file holding the sequence.
    public let entry: URL
    /// The position of the sequence in its entry (`/sequences/000042` is 42).
    public let index: Int
    /// The sequence's identifier (`LabeledSequence.id`).
    public let id: String
    /// The label as stored (before an experiment's label mapping).
    public let label: String
    /// The recording the sequence belongs to (`LabeledSequence.group`).
    public let group: String
    /// Frames, `T`.
    public let frameCount: Int
    /// Channels per joint, `C`.
    public let channelCount: Int
    /// Joints, `J`.
    public let jointCount: Int
    /// The sequence's frame rate, in frames per second.
    public let frameRate: Double
    /// The time of the first frame, in seconds (0 for an empty sequence).
    public let firstTimestamp: Double
    /// The time of the last frame, in seconds (0 for an empty sequence).
    public let lastTimestamp: Double

    /// Keypoint values of the sequence, `T·C·J` (4 bytes each in memory).
    public var valueCount: Int { frameCount * channelCount * jointCount }

    /// The frames the sequence has at `rate`: ``frameCount`` at its own rate, else the count
    /// `PoseSequence.resampled(to:)` gives (`PoseSequence.resampledFrameCount(at:)`).
    ///
    /// - Parameter rate: Frames per second.
    /// - Returns: The frame count at that rate; 0 for an empty sequence.
    public func frameCount(at rate: Double) -> Int {
        guard frameCount > 0 else { return 0 }
        if rate == frameRate { return frameCount }
        return PoseSequence.resampledFrameCount(firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp, at: rate)
    }

    /// Reads the sequence's keypoints and timestamps from its entry.
    ///
    /// The entry's checksum was verified when it was indexed; it is not hashed again for each
    /// sequence read (a batch reads a few sequences of entries that may be large), but every
    /// value read is checked to be finite.
    ///
    /// - Returns: The sequence, equal to the one ``CacheEntry/init(contentsOf:)`` reads.
    /// - Throws: ``FeatureCacheError/hdf5(_:)`` if the file cannot be read (removed since it was
    ///   indexed, say), ``FeatureCacheError/malformedEntry(file:object:reason:)`` for a wrong shape
    ///   or a value that is not finite.
    public func read() throws -> LabeledSequence {
        do {
            let file = try HDF5File.open(at: entry, mode: .readOnly)
            defer { try? file.close() }
            let group = try file.root().openGroup("sequences").openGroup(CacheEntry.sequenceGroupName(index))
            return try CacheEntry.readSequence(in: group, file: entry.path)
        } catch let error as HDF5Error {
            throw FeatureCacheError.hdf5(error)
        }
    }
}
