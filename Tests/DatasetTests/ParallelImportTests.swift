import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import Pose
import Testing

/// Importing on several workers: the same sequences, records, cache entries and errors as one
/// worker, and a second run that finds every file through the file-identity index.
@Suite struct ParallelImportTests {
    /// `clips/<label>/clip<n>/` folders of OpenPose COCO-18 frame files, each clip's poses its own;
    /// `broken` names a clip whose frame 3 is not JSON.
    static func writeClips(in directory: TemporaryDirectory, broken: String? = nil) throws {
        for label in ["squat", "wave"] {
            for clip in 0..<6 {
                for frame in 0..<8 {
                    var values: [Double] = []
                    for joint in 0..<18 {
                        let x = 100 + Double(joint * 10 + clip)
                        let y = 50 + Double(joint * 12) + 3 * Double(frame) + (label == "wave" ? 5 : 0)
                        values += [x, y, 0.8]
                    }
                    let name = "clips/\(label)/clip\(clip)/clip\(clip)_\(String(format: "%012d", frame))_keypoints.json"
                    let text = "\(label)/clip\(clip)" == broken && frame == 3
                        ? "{\"people\": [{\"pose_keypoints_2d\": [1, 2"
                        : "{\"people\": [{\"pose_keypoints_2d\": [\(values.map { "\($0)" }.joined(separator: ","))]}]}"
                    _ = try writeFixture(text, named: name, in: directory.url)
                }
            }
        }
    }

    /// Loads `clips` into the cache folder `cache` with `workers` workers.
    static func load(_ directory: TemporaryDirectory, cache: String, workers: Int) throws -> LoadedDataset {
        let configuration = try ExperimentConfiguration.parse(
            text: """
                { name: 'x', features: { layout: 'vision18', frameRate: 30, cache: '\(cache)' },
                  dataset: { sources: [{ format: 'openpose', path: 'clips', imageSize: [640, 480] }],
                             validation: { strategy: 'none' } } }
                """,
            fileName: "x.json5", baseDirectory: directory.url)
        var loader = DatasetLoader(configuration: configuration, cache: try FeatureCache(directory: configuration.features.cache))
        loader.workers = workers
        return try loader.load()
    }

    /// Every cache entry's file name under `cache` and its sequences.
    static func entries(_ directory: TemporaryDirectory, cache: String) throws -> [String: [LabeledSequence]] {
        let root = directory.file(cache)
        var entries: [String: [LabeledSequence]] = [:]
        for shard in try FileManager.default.contentsOfDirectory(atPath: root.path) where shard.count == 2 {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(shard).path) {
                entries[name] = try CacheEntry(contentsOf: root.appendingPathComponent(shard).appendingPathComponent(name)).sequences
            }
        }
        return entries
    }

    @Test func fourWorkersGiveTheSameCacheEntriesAndRecordsAsOne() throws {
        let directory = try TemporaryDirectory()
        try Self.writeClips(in: directory)
        let one = try Self.load(directory, cache: "cache-1", workers: 1)
        let four = try Self.load(directory, cache: "cache-4", workers: 4)
        #expect(one.train.count == 12)
        #expect(one.train.map(\.id) == four.train.map(\.id))
        #expect(try one.train.map { try $0.poseSequence() } == (try four.train.map { try $0.poseSequence() }))
        #expect(one.records.map { [$0.path, $0.sha256, $0.cacheKey] } == four.records.map { [$0.path, $0.sha256, $0.cacheKey] })
        let entries = try Self.entries(directory, cache: "cache-1")
        #expect(entries.count == 12)
        #expect(entries == (try Self.entries(directory, cache: "cache-4")))
        // The second run reads every entry from the cache, hashing only files that were racy.
        let again = try Self.load(directory, cache: "cache-4", workers: 4)
        #expect(again.cacheHits == 12)
        #expect(again.records.map(\.cacheKey) == four.records.map(\.cacheKey))
    }

    @Test func aBadFileFailsThatFileAloneWithTheSameErrorWhateverTheWorkers() throws {
        let directory = try TemporaryDirectory()
        try Self.writeClips(in: directory, broken: "wave/clip4")
        func failure(workers: Int) throws -> String {
            let error = try #require(throws: DatasetError.self) { try Self.load(directory, cache: "cache-\(workers)", workers: workers) }
            return "\(error)"
        }
        let one = try failure(workers: 1)
        #expect(one.contains("clips/wave/clip4/clip4_000000000003_keypoints.json"), "\(one)")
        #expect(try failure(workers: 3) == one)
        // Every good clip was imported and cached before the run failed.
        #expect(try Self.entries(directory, cache: "cache-3").count == 11)
    }
}
