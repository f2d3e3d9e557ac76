import Foundation
import Manifest

/// The video samples of a manifest: every `video` and `montage` source of every split and grid
/// cell, listed, with the extraction settings each needs.
public struct ManifestVideos {
    /// One video file at one extraction setting, with the samples that use it.
    public struct Video: Sendable, Hashable {
        /// The file.
        public var file: URL
        /// The most frames per second extracted (the source's frame rate).
        public var frameRate: Double
        /// The landmarker settings.
        public var pose: PoseEstimationConfiguration
        /// The samples (label and range) that use the file.
        public var samples: [DatasetSample]

        /// Creates a video to extract.
        public init(file: URL, frameRate: Double, pose: PoseEstimationConfiguration, samples: [DatasetSample] = []) {
            self.file = file
            self.frameRate = frameRate
            self.pose = pose
            self.samples = samples
        }
    }

    /// Distinct (file, frame rate, pose settings), in manifest order.
    public private(set) var videos: [Video] = []
    /// Sources that could not be listed (a missing folder, a bad annotation file), one message each.
    public private(set) var listingFailures: [String] = []

    /// The given videos, in order, without listing failures (such as `predict`'s inputs).
    public init(videos: [Video]) {
        self.videos = videos
    }

    /// Lists the video samples of every configuration in `configurations` (a plan's grid cells).
    public init(configurations: [ExperimentConfiguration]) {
        var index: [String: Int] = [:]
        for configuration in configurations {
            let dataset = configuration.dataset
            let sources = dataset.sources + dataset.validation.sources + (dataset.test?.sources ?? [])
            for source in sources where source.format.decodesVideo {
                let samples: [DatasetSample]
                do {
                    samples = try source.samples()
                } catch {
                    if !listingFailures.contains("\(error)") { listingFailures.append("\(error)") }
                    continue
                }
                for sample in samples {
                    let key = "\(sample.file.path)\n\(source.frameRate)\n\(configuration.features.pose)"
                    if let position = index[key] {
                        if !videos[position].samples.contains(sample) { videos[position].samples.append(sample) }
                    } else {
                        index[key] = videos.count
                        videos.append(Video(file: sample.file, frameRate: source.frameRate, pose: configuration.features.pose, samples: [sample]))
                    }
                }
            }
        }
    }
}

extension ManifestVideos {
    /// Shard `index` of `count`: the videos at positions `index`, `index + count`, `index + 2·count`, …
    /// of ``videos``, as `extract --shard index/count` runs them. The listing is deterministic
    /// (manifest order, folders sorted), so `count` shards cover every video once. Listing
    /// failures go with shard 0 only, so that they are reported once.
    /// - Precondition: `0 <= index < count`; the command line checks it.
    public func shard(_ index: Int, of count: Int) -> ManifestVideos {
        var part = self
        part.videos = videos.enumerated().filter { $0.offset % count == index }.map(\.element)
        if index != 0 { part.listingFailures = [] }
        return part
    }
}
