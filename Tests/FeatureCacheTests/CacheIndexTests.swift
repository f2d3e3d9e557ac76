import ActionLabTestSupport
import ContentHashing
import FeatureCache
import Foundation
import Pose
import Testing

/// The keypoint-free index of an entry and per-sequence reads, which streamed training relies on.
@Suite struct CacheIndexTests {
    /// The index describes every sequence as stored, and each sequence read alone equals the one
    /// the whole entry holds, bit for bit.
    @Test func indexDescribesAndReadsEverySequence() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let entry = try makeEntry(sampleSequences(count: 4))
        try cache.store(entry)
        let index = try #require(try cache.lookupIndex(key: entry.key))
        #expect(index.count == 4)
        for (position, (cached, stored)) in zip(index, entry.sequences).enumerated() {
            #expect(cached.index == position && cached.entry == cache.url(for: entry.key))
            #expect(cached.id == stored.id && cached.label == stored.label && cached.group == stored.group)
            #expect(cached.frameCount == stored.sequence.frameCount)
            #expect(cached.channelCount == 3 && cached.jointCount == 18)
            #expect(cached.valueCount == stored.sequence.keypoints.count)
            #expect(cached.frameRate.bitPattern == stored.sequence.frameRate.bitPattern)
            #expect(cached.frameCount(at: 15) == stored.sequence.resampledFrameCount(at: 15))
            #expect(cached.frameCount(at: cached.frameRate) == stored.sequence.frameCount)
            expectBitExact([try cached.read()], [stored])
        }
    }

    /// `sequenceIndex` imports on a miss and indexes the cache on a hit, with the same key and
    /// sequences as `sequences(source:...)`.
    @Test func sequenceIndexImportsOnceAndMatchesTheEntry() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.file("cache"))
        let source = directory.file("clip.json")
        try Data("keypoints".utf8).write(to: source)
        let calls = Counter()
        let fingerprint = ImporterFingerprint(importer: "openpose-json", version: "3")
        func index() throws -> (sequences: [CachedSequence], key: CacheKey, sourceHash: ContentHash, hit: Bool) {
            try cache.sequenceIndex(source: source, fingerprint: fingerprint, layoutName: "vision18", frameRate: 30) {
                calls.increment()
                return sampleSequences(count: 2)
            }
        }
        let first = try index()
        #expect(!first.hit && calls.value == 1 && first.sequences.count == 2)
        let second = try index()
        #expect(second.hit && calls.value == 1 && second.key == first.key && second.sequences == first.sequences)
        let full = try cache.sequences(source: source, fingerprint: fingerprint, layoutName: "vision18", frameRate: 30) {
            Issue.record("the entry is cached")
            return []
        }
        #expect(full.key == first.key)
        expectBitExact(try first.sequences.map { try $0.read() }, full.sequences)
    }

    /// A damaged entry is set aside by the index lookup, as by a full lookup.
    @Test func unreadableEntryIsAMiss() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let entry = try makeEntry()
        try cache.store(entry)
        try Data("not hdf5".utf8).write(to: cache.url(for: entry.key))
        #expect(try cache.lookupIndex(key: entry.key) == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.url(for: entry.key).path))
    }
}
