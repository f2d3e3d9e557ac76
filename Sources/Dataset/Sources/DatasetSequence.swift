import FeatureCache
import Pose

/// One labelled sequence of a loaded data set: its frames in memory, or a reference to them in
/// the feature cache, read when a batch needs them.
///
/// ``DatasetLoader`` keeps a data set in memory when its keypoints are small
/// (``DatasetLoader/inMemoryLimit``) and as cache references otherwise; windows, batches and
/// results are the same either way.
public struct DatasetSequence: Sendable {
    /// Where the frames are.
    public enum Frames: Sendable {
        /// The sequence itself, in memory.
        case loaded(PoseSequence)
        /// A sequence of a feature-cache entry, read on demand.
        case cached(CachedSequence)
    }

    /// The sequence's identifier (`LabeledSequence.id`).
    public var id: String
    /// The class label, after the experiment's label mapping.
    public var label: String
    /// The recording the sequence belongs to; validation splits keep recordings together.
    public var group: String
    /// The frames, or where to read them.
    public var frames: Frames
    /// Fields of the sequence's file name (`subject`, `trial`, ...; ``DatasetSample/fields``).
    public var fields: [String: String] = [:]

    /// A sequence held in memory.
    ///
    /// - Parameter sequence: The labelled sequence.
    public init(_ sequence: LabeledSequence) {
        id = sequence.id
        label = sequence.label
        group = sequence.group
        frames = .loaded(sequence.sequence)
    }

    /// A sequence read from the feature cache when needed.
    ///
    /// - Parameter cached: The sequence's description in its cache entry.
    public init(cached: CachedSequence) {
        id = cached.id
        label = cached.label
        group = cached.group
        frames = .cached(cached)
    }

    /// Whether the frames are in memory.
    public var isLoaded: Bool {
        if case .loaded = frames { return true }
        return false
    }

    /// Channels per joint, `C`.
    public var channelCount: Int {
        switch frames {
        case .loaded(let sequence): sequence.channelCount
        case .cached(let cached): cached.channelCount
        }
    }

    /// Joints, `J`.
    public var jointCount: Int {
        switch frames {
        case .loaded(let sequence): sequence.jointCount
        case .cached(let cached): cached.jointCount
        }
    }

    /// Frames at the sequence's own frame rate, `T`.
    public var frameCount: Int {
        switch frames {
        case .loaded(let sequence): sequence.frameCount
        case .cached(let cached): cached.frameCount
        }
    }

    /// Keypoint values, `T·C·J`.
    public var valueCount: Int { frameCount * channelCount * jointCount }

    /// The frames the sequence has at `frameRate` (after resampling when its rate differs).
    ///
    /// - Parameter frameRate: Frames per second.
    /// - Returns: The frame count `PoseSequence.resampled(to:)` would give.
    public func frameCount(at frameRate: Double) -> Int {
        switch frames {
        case .loaded(let sequence):
            sequence.frameRate == frameRate ? sequence.frameCount : sequence.resampledFrameCount(at: frameRate)
        case .cached(let cached):
            cached.frameCount(at: frameRate)
        }
    }

    /// The sequence's frames, read from the cache if they are not in memory.
    ///
    /// - Returns: The pose sequence at its own frame rate.
    /// - Throws: `FeatureCacheError` if a cached sequence cannot be read.
    public func poseSequence() throws -> PoseSequence {
        switch frames {
        case .loaded(let sequence): sequence
        case .cached(let cached): try cached.read().sequence
        }
    }
}
