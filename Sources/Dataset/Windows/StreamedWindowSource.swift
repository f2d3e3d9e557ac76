import Foundation
import Pose

/// Reads the sequences of a streamed ``WindowSet`` from the feature cache on demand, keeping the
/// few most recently used ones decoded.
///
/// A sequence is read (`CachedSequence.read()`, one HDF5 group), resampled to the window frame
/// rate if its own differs (or to the window's frame count, for uniform sampling), exactly as
/// ``WindowBuilder`` does for sequences in memory, and kept
/// in a least-recently-used cache of ``capacity`` sequences: evaluation reads a sequence's windows
/// one after another and so reads each sequence once; a shuffled training epoch reads about one
/// sequence per window. Safe to share between threads (one lock around the cache).
///
/// `@unchecked Sendable`: `decoded` is the only mutable property and is read and written only
/// with `lock` held; every other property is an immutable `let`.
final class StreamedWindowSource: @unchecked Sendable {
    /// The default number of decoded sequences kept.
    static let defaultCapacity = 64

    /// How a sequence's frames become the frames windows are cut from.
    enum Timing: Sendable, Equatable {
        /// Resampled on its timestamps to this frame rate (frames per second) when its own differs.
        case frameRate(Double)
        /// The whole sequence resampled to this many frames (uniform sampling).
        case frameCount(Int)
    }

    /// The sequences, indexed like the set's `sequenceIDs`.
    let sequences: [DatasetSequence]
    /// How sequences are resampled.
    let timing: Timing
    /// Whether resampling keeps all-zero joints undetected (`SkeletonLayout.marksUndetectedJointsWithZeros`).
    let treatsZeroJointsAsUndetected: Bool
    /// The number of decoded sequences kept.
    let capacity: Int
    private let lock = NSLock()
    private var decoded: LeastRecentlyUsedCache<Int, PoseSequence>

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - sequences: The set's sequences in `sequenceIDs` order.
    ///   - timing: The window frame rate, or the frame count of uniform sampling.
    ///   - treatsZeroJointsAsUndetected: Passed to `PoseSequence.resampled(to:treatingZeroJointsAsUndetected:)`.
    ///   - capacity: Decoded sequences kept.
    init(sequences: [DatasetSequence], timing: Timing, treatsZeroJointsAsUndetected: Bool, capacity: Int = defaultCapacity) {
        self.sequences = sequences
        self.timing = timing
        self.treatsZeroJointsAsUndetected = treatsZeroJointsAsUndetected
        self.capacity = capacity
        decoded = LeastRecentlyUsedCache(capacity: capacity)
    }

    /// Sequence `index` at the window frame rate.
    ///
    /// - Parameter index: The sequence, into ``sequences``.
    /// - Returns: The (resampled) sequence.
    /// - Throws: `FeatureCacheError` if it cannot be read.
    func sequence(at index: Int) throws -> PoseSequence {
        if let sequence = lock.withLock({ decoded.value(for: index) }) { return sequence }
        let sequence = try Self.resampled(
            sequences[index].poseSequence(), timing, treatsZeroJointsAsUndetected: treatsZeroJointsAsUndetected)
        lock.withLock { decoded.insert(sequence, for: index) }
        return sequence
    }

    /// `sequence` at the windows' timing: itself at its own rate, else resampled on its
    /// timestamps; or, for uniform sampling, all of it resampled to the window's frame count.
    static func resampled(_ sequence: PoseSequence, _ timing: Timing, treatsZeroJointsAsUndetected: Bool) -> PoseSequence {
        switch timing {
        case .frameRate(let frameRate):
            sequence.frameRate == frameRate
                ? sequence
                : sequence.resampled(to: frameRate, treatingZeroJointsAsUndetected: treatsZeroJointsAsUndetected)
        case .frameCount(let count):
            sequence.resampled(toFrameCount: count, treatingZeroJointsAsUndetected: treatsZeroJointsAsUndetected)
        }
    }
}
