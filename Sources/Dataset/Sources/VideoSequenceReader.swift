import Extraction
import FeatureCache
import Foundation
import Manifest
import Pose

/// Reads the labeled sequences of video samples: extracts each video once (through the feature
/// cache), then cuts the sample's time range and resamples it to the source's frame rate.
///
/// Extraction results are kept for the reader's lifetime, so montage annotations naming one
/// video many times decode it once. Not thread-safe: one reader per loading thread.
final class VideoSequenceReader {
    private let cache: FeatureCache
    private let pose: PoseEstimationConfiguration
    private let log: (String) -> Void
    private var fingerprints: [Double: ImporterFingerprint] = [:]
    private var extractions: [VideoKey: Result] = [:]

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
        VideoPoseExtractor(options: pose.estimatorOptions, frameRate: frameRate)
    }

    /// The extraction of `file` at `frameRate`, from memory, the cache, or by extracting it.
    /// - Parameter progress: Called per estimated frame when the file is extracted.
    /// - Throws: ``ExtractionError``.
    func extraction(of file: URL, frameRate: Double, progress: (Int) -> Void = { _ in }) throws -> Result {
        let videoKey = VideoKey(path: file.path, frameRate: frameRate)
        if let known = extractions[videoKey] { return Result(extraction: known.extraction, key: known.key, sourceHash: known.sourceHash, hit: true) }
        let extractor = extractor(frameRate: frameRate)
        let fingerprint = try fingerprints[frameRate] ?? extractor.fingerprint()
        fingerprints[frameRate] = fingerprint
        let result = try extractor.cachedExtraction(of: file, cache: cache, fingerprint: fingerprint, progress: progress)
        let value = Result(extraction: result.extraction, key: result.key, sourceHash: result.sourceHash, hit: result.hit)
        extractions[videoKey] = value
        return value
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
