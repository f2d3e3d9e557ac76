import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Testing

/// Extracting videos on several workers (`extract`, and `run`'s loading): the same cache entries
/// (keys, keypoints, timestamps, person counts, metadata) as one worker, and a broken video failing alone. Real clips made from
/// messi5.jpg and vtest.avi (`scripts/setup`), with MediaPipe's library and model.
@Suite(.serialized) struct ParallelVideoExtractionTests {
    /// `videos/player/clip<n>.mp4`: 2-s pans over messi5.jpg at 30 fps, each from its own phase;
    /// `videos/street/clip<n>.avi`: 2-s pieces of vtest.avi at 10 fps (several people).
    /// - Returns: The clips' paths.
    static func writeClips(in directory: TemporaryDirectory) throws -> [URL] {
        var clips: [URL] = []
        for (index, phase) in [0.0, 0.5, 1.0, 1.5].enumerated() {
            let clip = directory.file("videos/player/clip\(index).mp4")
            try FFmpegTool.run([
                "-loop", "1", "-framerate", "30", "-i", try TestData.file("opencv/messi5.jpg").path, "-t", "2",
                "-vf", "crop=508:318:20+20*sin(2*PI*(t+\(phase))/2):12+12*cos(2*PI*(t+\(phase))/2)", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", clip.path,
            ])
            clips.append(clip)
        }
        for index in 0..<2 {
            let clip = directory.file("videos/street/clip\(index).avi")
            try FFmpegTool.run(["-ss", "\(index * 4)", "-i", try TestData.file("opencv/vtest.avi").path, "-t", "2", "-c", "copy", clip.path])
            clips.append(clip)
        }
        return clips
    }

    /// The manifest of `videos/` (labels from the folders), extracted at 10 fps into `cache`.
    static func configuration(_ directory: TemporaryDirectory, cache: String) throws -> ExperimentConfiguration {
        try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { frameRate: 10, cache: '\(cache)' },
                  dataset: { sources: [{ format: 'video', path: 'videos' }], validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
    }

    /// `extract`'s run of the manifest's videos into `cache` with `workers` workers.
    static func extract(_ directory: TemporaryDirectory, cache: String, workers: Int) throws -> VideoExtractionRun.Summary {
        let configuration = try configuration(directory, cache: cache)
        let run = VideoExtractionRun(
            videos: ManifestVideos(configurations: [configuration]), cache: try FeatureCache(directory: configuration.features.cache),
            workers: workers)
        return run.run()
    }

    /// Every cache entry under `cache`, by file name, as read back (its checksum verified), with
    /// its import time set to a constant: the only field that differs between two extractions of
    /// one file (whole seconds, so it also changes the entry's bytes and checksum).
    static func entries(_ directory: TemporaryDirectory, cache: String) throws -> [String: CacheEntry] {
        let root = directory.file(cache)
        var entries: [String: CacheEntry] = [:]
        for shard in try FileManager.default.contentsOfDirectory(atPath: root.path) where shard.count == 2 {
            let folder = root.appendingPathComponent(shard)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                var entry = try CacheEntry(contentsOf: folder.appendingPathComponent(name))
                entry.created = Date(timeIntervalSince1970: 0)
                entries[name] = entry
            }
        }
        return entries
    }

    @Test("extract and run's loading with 3 workers write the same cache entries (all but the import time) as one worker")
    func workersGiveTheSameEntries() throws {
        let directory = try TemporaryDirectory()
        let clips = try Self.writeClips(in: directory)
        let one = try Self.extract(directory, cache: "cache-1", workers: 1)
        #expect(one.failures.isEmpty, "\(one.failures)")
        #expect(one.extracted == clips.count)
        let three = try Self.extract(directory, cache: "cache-3", workers: 3)
        #expect(three.failures.isEmpty, "\(three.failures)")
        #expect(three.extracted == clips.count && three.framesExtracted == one.framesExtracted)
        let entries = try Self.entries(directory, cache: "cache-1")
        #expect(entries.count == clips.count)
        // Same keys, keypoints, timestamps, person counts and metadata.
        #expect(entries == (try Self.entries(directory, cache: "cache-3")), "entries differ between 1 and 3 workers")
        #expect(entries.values.allSatisfy { $0.personCounts.first?.isEmpty == false })

        // `run` extracts while loading the data set: 3 workers, the same entries and sequences.
        let configuration = try Self.configuration(directory, cache: "cache-loader")
        var loader = DatasetLoader(configuration: configuration, cache: try FeatureCache(directory: configuration.features.cache))
        loader.workers = 3
        let loaded = try loader.load()
        #expect(loaded.cacheHits == 0)
        #expect(try Self.entries(directory, cache: "cache-loader") == entries, "entries differ between extract and run's loading")
        let reference = try DatasetLoader(configuration: try Self.configuration(directory, cache: "cache-1"), cache: try FeatureCache(
            directory: directory.file("cache-1"))).load()
        #expect(reference.cacheHits == clips.count)
        #expect(loaded.train.map(\.id) == reference.train.map(\.id))
        #expect(try loaded.train.map { try $0.poseSequence() } == (try reference.train.map { try $0.poseSequence() }))
        #expect(loaded.records.map(\.cacheKey) == reference.records.map(\.cacheKey))
    }

    @Test("A truncated video among good ones fails alone with 3 workers, naming the file; the others are written")
    func brokenVideoFailsAlone() throws {
        let directory = try TemporaryDirectory()
        let clips = try Self.writeClips(in: directory)
        let whole = try Data(contentsOf: clips[0])
        let truncated = directory.file("videos/player/truncated.mp4")
        try whole.prefix(whole.count / 2).write(to: truncated)
        let summary = try Self.extract(directory, cache: "cache", workers: 3)
        try #require(summary.failures.count == 1, "\(summary.failures)")
        #expect(summary.failures[0].contains(truncated.path), "\(summary.failures[0])")
        #expect(summary.extracted == clips.count)
        #expect(try Self.entries(directory, cache: "cache").count == clips.count)
        #expect(summary.outcomes.count == clips.count + 1)
        // A rerun finds the good videos in the cache and fails the same way on the broken one.
        let again = try Self.extract(directory, cache: "cache", workers: 3)
        #expect(again.cacheHits == clips.count && again.extracted == 0)
        #expect(again.failures == summary.failures)
    }
}
