import ContentHashing
import Extraction
import FeatureCache
import Foundation
import Manifest
import Pose

/// Reads the labeled sequences of video samples: extracts each video once (through the feature
/// cache), then cuts the sample's time range and resamples it to the source's frame rate.
///
/// Extraction results (and failures) are kept for the reader's lifetime, so montage annotations
/// naming one video many times decode it once. ``prefetch(_:frameRate:workers:finishedOne:)``
/// extracts a source's videos on several workers at once before they are read. Not thread-safe:
/// one reader per loading thread.
final class VideoSequenceReader {
    private let cache: FeatureCache
    private let pose: PoseEstimationConfiguration
    private let log: (String) -> Void
    private var knownFingerprint: ImporterFingerprint?
    private var extractions: [VideoKey: Memo] = [:]

    /// A video's extraction or failure, and whether it was prefetched and not read yet (its
    /// first read reports the cache hit as it was; later reads count as hits).
    private struct Memo {
        var result: Swift.Result<Result, any Error>
        var isUnread: Bool
    }

    /// One file at one extraction rate.
    private struct VideoKey: Hashable {
        var path: String
        var frameRate: Double
    }

    /// A video's extraction with its cache facts.
    struct Result {
        var extraction: VideoPoseExtraction
        var key: CacheKey
        var sourceHash: ContentHash
        var hit: Bool
    }

    init(cache: FeatureCache, pose: PoseEstimationConfiguration, log: @escaping (String) -> Void) {
        self.cache = cache
        self.pose = pose
        self.log = log
    }

    /// The extractor for videos extracted at `frameRate` frames per second.
    func extractor(frameRate: Double) -> VideoPoseExtractor {
        Self.extractor(pose: pose, frameRate: frameRate)
    }

    /// The extractor of landmarker settings `pose` for videos extracted at `frameRate` frames per second.
    static func extractor(pose: PoseEstimationConfiguration, frameRate: Double) -> VideoPoseExtractor {
        VideoPoseExtractor(options: pose.estimatorOptions, frameRate: frameRate)
    }

    /// The extraction of `file` at `frameRate`, from memory, the cache, or by extracting it.
    /// - Parameter progress: Called per estimated frame when the file is extracted.
    /// - Throws: ``ExtractionError``, also when an earlier read or prefetch of the file failed.
    func extraction(of file: URL, frameRate: Double, progress: (Int) -> Void = { _ in }) throws -> Result {
        let videoKey = VideoKey(path: file.path, frameRate: frameRate)
        if var known = extractions[videoKey] {
            defer { known.isUnread = false; extractions[videoKey] = known }
            return try known.result.map { value in
                var value = value
                value.hit = value.hit || !known.isUnread
                return value
            }.get()
        }
        let result = Swift.Result { try extractUncached(file, frameRate: frameRate, fingerprint: try fingerprint(), progress: progress) }
        extractions[videoKey] = Memo(result: result, isUnread: false)
        return try result.get()
    }

    /// Extracts the files of `files` not read yet on `workers` threads at once (one landmarker
    /// each), keeping each result or failure for ``extraction(of:frameRate:progress:)``.
    ///
    /// Entries and keypoints are those of reading the files one by one: every video gets a
    /// fresh landmarker whichever worker runs it. With one worker, one file, or a fingerprint
    /// that cannot be computed, nothing is done here and the files are extracted as they are read.
    /// - Parameters:
    ///   - files: The files, in the order they are read; repeats are extracted once.
    ///   - frameRate: The most frames per second estimated.
    ///   - workers: Videos extracted at once.
    ///   - finishedOne: Called, from the workers, as each file is done.
    func prefetch(_ files: [URL], frameRate: Double, workers: Int, finishedOne: () -> Void = {}) {
        var seen = Set<String>()
        let missing = files.filter { extractions[VideoKey(path: $0.path, frameRate: frameRate)] == nil && seen.insert($0.path).inserted }
        guard workers > 1, missing.count > 1, let fingerprint = try? fingerprint() else { return }
        let results = OrderedParallelMap.map(missing, workers: workers) { file in
            defer { finishedOne() }
            return Swift.Result { try extractUncached(file, frameRate: frameRate, fingerprint: fingerprint) }
        }
        for (file, result) in zip(missing, results) {
            extractions[VideoKey(path: file.path, frameRate: frameRate)] = Memo(result: result, isUnread: true)
        }
    }

    /// The extractor's fingerprint, computed once per reader (it does not depend on the frame rate).
    private func fingerprint() throws -> ImporterFingerprint {
        if let knownFingerprint { return knownFingerprint }
        let computed = try extractor(frameRate: 1).fingerprint()
        knownFingerprint = computed
        return computed
    }

    /// `file` through the cache, without the reader's memory. Safe to call from several threads.
    private func extractUncached(
        _ file: URL, frameRate: Double, fingerprint: ImporterFingerprint, progress: (Int) -> Void = { _ in }
    ) throws -> Result {
        let result = try extractor(frameRate: frameRate).cachedExtraction(of: file, cache: cache, fingerprint: fingerprint, progress: progress)
        return Result(extraction: result.extraction, key: result.key, sourceHash: result.sourceHash, hit: result.hit)
    }

    /// The labeled sequence of one video sample: its time range (clamped to the video with a
    /// warning when it runs past the end), timestamps from 0, resampled on timestamps to the
    /// source's frame rate.
    /// - Throws: ``ExtractionError``, or ``DatasetSourceError`` when the range holds no frame.
    func sequence(of sample: DatasetSample, source: DataSource) throws -> (sequence: LabeledSequence, result: Result) {
        let result = try extraction(of: sample.file, frameRate: source.frameRate)
        let extraction = result.extraction
        let full = extraction.sequence
        var id = sample.file.path
        var sequence = full
        if sample.start != nil || sample.end != nil {
            let start = sample.start ?? 0
            var end = sample.end ?? .infinity
            let videoEnd = max(extraction.duration, (full.timestamps.last ?? 0) + 1 / full.frameRate)
            if end.isFinite && end > videoEnd + 1e-6 {
                log("warning: \(sample.origin ?? sample.file.path): end_time \(end) s is past the end of \(sample.file.lastPathComponent) "
                    + "(\(String(format: "%.3f", videoEnd)) s); clamped")
                end = videoEnd
            }
            let kept = full.timestamps.indices.filter { full.timestamps[$0] >= start && full.timestamps[$0] < end }
            guard let first = kept.first, let last = kept.last else {
                throw DatasetSourceError(
                    file: sample.origin ?? sample.file.path,
                    message: "the range \(start) s to \(sample.end.map { "\($0) s" } ?? "the end") holds no frame of \(sample.file.path) "
                        + "(\(String(format: "%.3f", videoEnd)) s long)")
            }
            let perFrame = full.valuesPerFrame
            sequence = PoseSequence(
                keypoints: Array(full.keypoints[(first * perFrame)..<((last + 1) * perFrame)]),
                timestamps: full.timestamps[first...last].map { $0 - full.timestamps[first] }, channelCount: full.channelCount,
                jointCount: full.jointCount, frameRate: full.frameRate)
            id += "#\(start)-\(end.isFinite ? "\(end)" : "end")"
        } else if let first = full.timestamps.first, first != 0 {
            sequence.timestamps = full.timestamps.map { $0 - first }
        }
        let resampled = sequence.resampled(to: source.frameRate)
        return (LabeledSequence(id: id, label: sample.label ?? "", group: sample.file.path, sequence: resampled), result)
    }
}
