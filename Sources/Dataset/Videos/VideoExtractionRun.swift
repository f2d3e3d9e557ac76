import FeatureCache
import Foundation
import Manifest

/// Extracts every video of a manifest into the feature cache (`actionlab extract`), one video
/// at a time, reporting progress; a failing video is recorded and the rest are still extracted.
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

    /// Progress reports, in order.
    public enum Event {
        /// Video `index` (0-based) of `count` is starting.
        case started(index: Int, count: Int, file: URL)
        /// `frames` frames of the current video have been estimated.
        case frames(Int)
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
        /// Failed videos and unlistable sources, one message each.
        public var failures: [String] = []
    }

    /// The videos to extract.
    public var videos: ManifestVideos
    /// The feature cache.
    public var cache: FeatureCache

    /// Creates a run over `videos` into `cache`.
    public init(videos: ManifestVideos, cache: FeatureCache) {
        self.videos = videos
        self.cache = cache
    }

    /// Extracts every video not in the cache yet.
    /// - Parameter onEvent: Receives progress, on the calling thread.
    /// - Returns: Cache hits, extractions and failures (listing failures included).
    public func run(onEvent: (Event) -> Void = { _ in }) -> Summary {
        var summary = Summary(failures: videos.listingFailures)
        _ = try? cache.removeAbandonedTemporaryFiles()
        var readers: [PoseEstimationConfiguration: VideoSequenceReader] = [:]
        let clock = ContinuousClock()
        for (index, video) in videos.videos.enumerated() {
            onEvent(.started(index: index, count: videos.videos.count, file: video.file))
            let reader = readers[video.pose] ?? VideoSequenceReader(cache: cache, pose: video.pose, log: { _ in })
            readers[video.pose] = reader
            let started = clock.now
            let outcome: Outcome
            do {
                let result = try reader.extraction(of: video.file, frameRate: video.frameRate) { onEvent(.frames($0)) }
                let frames = result.extraction.sequence.frameCount
                if result.hit {
                    outcome = .cacheHit(frames: frames)
                    summary.cacheHits += 1
                } else {
                    let elapsed = (clock.now - started).components
                    outcome = .extracted(frames: frames, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
                    summary.extracted += 1
                    summary.framesExtracted += frames
                }
            } catch {
                outcome = .failed("\(error)")
                summary.failures.append("\(error)")
            }
            onEvent(.finished(index: index, count: videos.videos.count, file: video.file, outcome: outcome))
        }
        return summary
    }
}
