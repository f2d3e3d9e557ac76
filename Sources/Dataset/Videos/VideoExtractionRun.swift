import Extraction
import FeatureCache
import Foundation
import Manifest

/// Extracts every video of a manifest into the feature cache (`actionlab extract`), ``workers``
/// videos at a time, reporting progress; a failing video is recorded and the rest are still
/// extracted.
///
/// Each worker extracts one video at a time with a landmarker of its own, created for that video
/// (MediaPipe's video mode tracks a person from frame to frame, so a landmarker shared between
/// videos or threads would make a video's keypoints depend on what ran before it), its frames
/// decoded on a thread of their own as for one video (``VideoPoseExtractor``). The cache entries
/// therefore hold the same keypoints, timestamps, person counts and metadata whatever the number
/// of workers (only their import time differs, as between any two runs); only the order in which
/// videos finish changes.
public struct VideoExtractionRun {
    /// What happened to one video.
    public enum Outcome: Sendable {
        /// Its entry was already in the cache.
        case cacheHit(frames: Int)
        /// It was extracted and stored: `frames` estimated in `seconds`.
        case extracted(frames: Int, seconds: Double)
        /// It failed; the message names the file and the library's error.
        case failed(String)
    }

    /// Progress reports. Each video's events come in order (started, frames, finished); with
    /// several workers, the events of videos in flight at once interleave.
    public enum Event {
        /// Video `index` (0-based) of `count` is starting.
        case started(index: Int, count: Int, file: URL)
        /// `frames` frames of video `index` have been estimated.
        case frames(index: Int, frames: Int)
        /// Video `index` is done.
        case finished(index: Int, count: Int, file: URL, outcome: Outcome)
    }

    /// Totals of a run.
    public struct Summary: Sendable {
        /// Videos found in the cache.
        public var cacheHits = 0
        /// Videos extracted now.
        public var extracted = 0
        /// Frames estimated now.
        public var framesExtracted = 0
        /// Failed videos and unlistable sources, one message each, in the videos' order.
        public var failures: [String] = []
        /// What happened to each video, `outcomes[i]` to `videos.videos[i]`.
        public var outcomes: [Outcome] = []
    }

    /// The videos to extract.
    public var videos: ManifestVideos
    /// The feature cache.
    public var cache: FeatureCache
    /// Videos extracted at once, each by a worker thread with its own landmarker (at least 1).
    public var workers: Int

    /// Creates a run over `videos` into `cache`.
    /// - Parameter workers: Videos extracted at once; values below 1 count as 1.
    public init(videos: ManifestVideos, cache: FeatureCache, workers: Int = 1) {
        self.videos = videos
        self.cache = cache
        self.workers = max(1, workers)
    }

    /// Extracts every video not in the cache yet.
    /// - Parameter onEvent: Receives progress, one event at a time (from the worker threads,
    ///   serialized by a lock).
    /// - Returns: Cache hits, extractions and failures (listing failures included).
    public func run(onEvent: (Event) -> Void = { _ in }) -> Summary {
        var summary = Summary(failures: videos.listingFailures)
        _ = try? cache.removeAbandonedTemporaryFiles()
        // One fingerprint per landmarker setting (it hashes libmediapipe.so and the model once).
        var fingerprints: [PoseEstimationConfiguration: Result<ImporterFingerprint, any Error>] = [:]
        for video in videos.videos where fingerprints[video.pose] == nil {
            fingerprints[video.pose] = Result { try VideoSequenceReader.extractor(pose: video.pose, frameRate: video.frameRate).fingerprint() }
        }
        let count = videos.videos.count
        let events = NSLock()
        let clock = ContinuousClock()
        let outcomes = OrderedParallelMap.map(Array(videos.videos.enumerated()), workers: workers) { index, video -> Outcome in
            events.withLock { onEvent(.started(index: index, count: count, file: video.file)) }
            let started = clock.now
            let outcome: Outcome
            do {
                let extractor = VideoSequenceReader.extractor(pose: video.pose, frameRate: video.frameRate)
                let fingerprint = try (fingerprints[video.pose] ?? Result { try extractor.fingerprint() }).get()
                let result = try extractor.cachedExtraction(of: video.file, cache: cache, fingerprint: fingerprint) { frames in
                    events.withLock { onEvent(.frames(index: index, frames: frames)) }
                }
                let frames = result.extraction.sequence.frameCount
                if result.hit {
                    outcome = .cacheHit(frames: frames)
                } else {
                    let elapsed = (clock.now - started).components
                    outcome = .extracted(frames: frames, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
                }
            } catch {
                outcome = .failed("\(error)")
            }
            events.withLock { onEvent(.finished(index: index, count: count, file: video.file, outcome: outcome)) }
            return outcome
        }
        for outcome in outcomes {
            switch outcome {
            case .cacheHit:
                summary.cacheHits += 1
            case let .extracted(frames, _):
                summary.extracted += 1
                summary.framesExtracted += frames
            case let .failed(message):
                summary.failures.append(message)
            }
        }
        summary.outcomes = outcomes
        return summary
    }
}
