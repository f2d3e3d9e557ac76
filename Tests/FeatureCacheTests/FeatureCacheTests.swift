import ActionLabTestSupport
import AtomicFiles
import ContentHashing
@testable import FeatureCache
import Foundation
import HDF5
import Pose
import Testing

/// Sequences with edge-case values (signed zero, the largest finite Float, subnormals) to check
/// bit-exact storage (NaN and infinities are rejected when stored).
func sampleSequences(count: Int = 3, frames: Int = 5) -> [LabeledSequence] {
    (0..<count).map { index in
        let t = frames + index
        var keypoints = (0..<(t * 3 * 18)).map { Float($0 % 97) * 0.013 + Float(index) }
        keypoints[0] = -0.0
        keypoints[1] = -.greatestFiniteMagnitude
        keypoints[2] = .leastNonzeroMagnitude
        let sequence = PoseSequence(
            keypoints: keypoints, timestamps: PoseSequence.uniformTimestamps(frameCount: t, frameRate: 29.97),
            channelCount: 3, jointCount: 18, frameRate: 29.97)
        return LabeledSequence(id: "clip.mp4#\(index)", label: ["walk", "run", "jump"][index % 3], group: "clip-\(index / 2)", sequence: sequence)
    }
}

/// Bit-exact comparison (NaN payloads included), which `==` on Float cannot do.
func expectBitExact(_ read: [LabeledSequence], _ written: [LabeledSequence], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(read.count == written.count, sourceLocation: sourceLocation)
    for (a, b) in zip(read, written) {
        #expect(a.id == b.id && a.label == b.label && a.group == b.group, sourceLocation: sourceLocation)
        #expect(a.sequence.keypoints.map(\.bitPattern) == b.sequence.keypoints.map(\.bitPattern), sourceLocation: sourceLocation)
        #expect(a.sequence.timestamps.map(\.bitPattern) == b.sequence.timestamps.map(\.bitPattern), sourceLocation: sourceLocation)
        #expect(a.sequence.channelCount == b.sequence.channelCount, sourceLocation: sourceLocation)
        #expect(a.sequence.jointCount == b.sequence.jointCount, sourceLocation: sourceLocation)
        #expect(a.sequence.frameRate.bitPattern == b.sequence.frameRate.bitPattern, sourceLocation: sourceLocation)
    }
}

func makeEntry(_ sequences: [LabeledSequence] = sampleSequences(), source: String = "source bytes") throws -> CacheEntry {
    try CacheEntry(
        sourcePath: "/data/clip.mp4", sourceHash: ContentHash.sha256(of: source),
        fingerprint: ImporterFingerprint(importer: "test", version: "1", settings: ["layout": "vision18"]),
        layoutName: "vision18", frameRate: 29.97, created: Date(timeIntervalSince1970: 1_700_000_000.75), sequences: sequences)
}

/// Counts calls from any thread.
///
/// `@unchecked Sendable`: `count` is read and written only with `lock` held.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

@Suite struct FeatureCacheTests {
    @Test func storeThenLookupIsBitExact() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache"))
        let entry = try makeEntry(sampleSequences(count: 4) + [
            LabeledSequence(id: "empty", label: "none", group: "g", sequence: PoseSequence(keypoints: [], timestamps: [], channelCount: 3, jointCount: 18, frameRate: 30)),
            LabeledSequence(id: "long", label: "walk", group: "g", sequence: PoseSequence(
                keypoints: (0..<(400 * 3 * 18)).map { Float($0) }, timestamps: PoseSequence.uniformTimestamps(frameCount: 400, frameRate: 30),
                channelCount: 3, jointCount: 18, frameRate: 30)),
        ])
        try cache.store(entry)
        let path = cache.url(for: entry.key).path
        #expect(path.hasSuffix("/\(entry.key.hexDigest.prefix(2))/\(entry.key.hexDigest).h5"))
        #expect(FileManager.default.fileExists(atPath: path))
        let read = try #require(try cache.lookup(key: entry.key))
        expectBitExact(read.sequences, entry.sequences)
        #expect(read.key == entry.key)
        #expect(read.sourcePath == "/data/clip.mp4")
        #expect(read.sourceHash == entry.sourceHash)
        #expect(read.importer == "test" && read.importerVersion == "1")
        #expect(read.fingerprint == entry.fingerprint)
        #expect(read.layoutName == "vision18")
        #expect(read.frameRate == 29.97)
        #expect(read.created == Date(timeIntervalSince1970: 1_700_000_000))
        // No temporary files are left behind.
        let shardFiles = try FileManager.default.contentsOfDirectory(atPath: cache.url(for: entry.key).deletingLastPathComponent().path)
        #expect(shardFiles == ["\(entry.key.hexDigest).h5"])
    }

    @Test func entriesStoredWithDeferredSyncAreCompleteAndReadable() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache"))
        let entries = try (1...3).map { count in try makeEntry(sampleSequences(count: count), source: "clip-\(count)") }
        let stored = try cache.withDeferredSync {
            for entry in entries { try cache.store(entry) }
            return entries.count
        }
        #expect(stored == 3)
        for entry in entries {
            let read = try #require(try cache.lookup(key: entry.key))
            expectBitExact(read.sequences, entry.sequences)
            let shard = try FileManager.default.contentsOfDirectory(atPath: cache.url(for: entry.key).deletingLastPathComponent().path)
            #expect(!shard.contains { $0.hasSuffix(FeatureCache.temporarySuffix) })
        }
        // What the body throws comes out, and the cache stores (and syncs) as before afterwards.
        #expect(throws: FeatureCacheError.self) {
            try cache.withDeferredSync { throw FeatureCacheError.invalidKey("x") }
        }
        let later = try makeEntry(sampleSequences(count: 5), source: "clip-5")
        try cache.store(later)
        #expect(try cache.lookup(key: later.key) != nil)
    }

    @Test func missingKeyIsNil() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        #expect(try cache.lookup(key: CacheKey(hexDigest: String(repeating: "ab", count: 32))) == nil)
    }

    @Test(arguments: ["truncated", "garbage", "empty", "other-hdf5", "wrong-version"])
    func unreadableEntryIsAMissAndIsMovedAside(kind: String) throws {
        let directory = try TemporaryDirectory()
        let discarded = Counter()
        let cache = try FeatureCache(directory: directory.url) { _ in discarded.increment() }
        let entry = try makeEntry()
        try cache.store(entry)
        let url = cache.url(for: entry.key)
        switch kind {
        case "truncated":
            let bytes = try Data(contentsOf: url)
            try bytes.prefix(bytes.count / 2).write(to: url)
        case "garbage":
            try Data((0..<5_000).map { UInt8($0 % 251) }).write(to: url)
        case "empty":
            try Data().write(to: url)
        case "other-hdf5":
            let file = try HDF5File.create(at: url)
            try file.root().attributes.write("something-else", named: "format")
            try file.close()
            try EntryChecksum.stamp(fileAt: url)
        default:
            let file = try HDF5File.open(at: url, mode: .readWrite)
            try file.root().attributes.write(Int64(99), named: "format_version")
            try file.close()
            try EntryChecksum.stamp(fileAt: url)
        }
        #expect(try cache.lookup(key: entry.key) == nil)
        #expect(discarded.value == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let aside = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(aside.count == 1 && aside.allSatisfy { $0.hasPrefix("\(entry.key.hexDigest).h5.corrupt-") })
        // Storing again repairs it.
        try cache.store(entry)
        expectBitExact(try #require(try cache.lookup(key: entry.key)).sequences, entry.sequences)
    }

    @Test func readingWrongVersionNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("entry.h5")
        try makeEntry().write(to: url)
        let file = try HDF5File.open(at: url, mode: .readWrite)
        try file.root().attributes.write(Int64(2), named: "format_version")
        try file.close()
        try EntryChecksum.stamp(fileAt: url)
        #expect(throws: FeatureCacheError.unsupportedFormatVersion(file: url.path, found: 2)) { try CacheEntry(contentsOf: url) }
    }

    /// Writes a file with a valid entry's root attributes and one hand-made sequence group.
    func writeHandMadeEntry(
        to url: URL, sequenceCount: Int64, keypointShape: [Int], timestampCount: Int
    ) throws {
        let entry = try makeEntry()
        let file = try HDF5File.create(at: url)
        let attributes = try file.root().attributes
        for (name, value) in [
            ("format", "actionlab-feature-cache"), ("key", entry.key.hexDigest), ("source_path", entry.sourcePath),
            ("source_sha256", entry.sourceHash.hexDigest), ("importer", entry.importer),
            ("importer_version", entry.importerVersion), ("fingerprint", entry.fingerprint), ("layout", "vision18"),
            ("created", "2023-11-14T22:13:20Z"),
        ] {
            try attributes.write(value, named: name)
        }
        try attributes.write(Int64(1), named: "format_version")
        try attributes.write(29.97, named: "frame_rate")
        try attributes.write(sequenceCount, named: "sequence_count")
        let group = try file.root().createGroup("sequences/000000")
        try group.createDataset("keypoints", values: [Float](repeating: 0, count: keypointShape.reduce(1, *)), shape: keypointShape)
        try group.createDataset("timestamps", values: [Double](repeating: 0, count: timestampCount), shape: [timestampCount])
        for name in ["id", "label", "group"] { try group.attributes.write(name, named: name) }
        try group.attributes.write(29.97, named: "frame_rate")
        try file.close()
        try EntryChecksum.stamp(fileAt: url)
    }

    @Test func handMadeEntryInTheDocumentedLayoutIsReadable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("entry.h5")
        try writeHandMadeEntry(to: url, sequenceCount: 1, keypointShape: [4, 3, 18], timestampCount: 4)
        let entry = try CacheEntry(contentsOf: url)
        #expect(entry.sequences.map(\.sequence.frameCount) == [4])
        #expect(entry.key == (try makeEntry()).key)
    }

    @Test(arguments: [
        (Int64(2), [4, 3, 18], 4, "/sequences"),
        (Int64(1), [4, 54], 4, "/sequences/000000/keypoints"),
        (Int64(1), [4, 3, 18], 5, "/sequences/000000/timestamps"),
    ])
    func inconsistentContentsAreMalformed(sequenceCount: Int64, keypointShape: [Int], timestampCount: Int, object: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("entry.h5")
        try writeHandMadeEntry(to: url, sequenceCount: sequenceCount, keypointShape: keypointShape, timestampCount: timestampCount)
        let error = try #require(throws: FeatureCacheError.self) { try CacheEntry(contentsOf: url) }
        guard case let .malformedEntry(file, reportedObject, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(file == url.path)
        #expect(reportedObject == object)
    }

    @Test func notACacheEntryNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("other.h5")
        try HDF5File.create(at: url).close()
        try EntryChecksum.stamp(fileAt: url)
        #expect(throws: FeatureCacheError.notACacheEntry(file: url.path, format: "")) { try CacheEntry(contentsOf: url) }
    }

    @Test func temporaryFilesAreNeverRead() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let entry = try makeEntry()
        try cache.store(entry)
        let url = cache.url(for: entry.key)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("\(entry.key.hexDigest).123.ABC.tmp")
        try FileManager.default.moveItem(at: url, to: temporary)
        #expect(try cache.lookup(key: entry.key) == nil)
        #expect(FileManager.default.fileExists(atPath: temporary.path))
        // Stale temporary files are cleaned by age.
        #expect(try cache.removeStaleTemporaryFiles(olderThan: 3_600).isEmpty)
        let removed = try cache.removeStaleTemporaryFiles(olderThan: 3_600, now: Date().addingTimeInterval(7_200))
        #expect(removed.map(\.lastPathComponent) == [temporary.lastPathComponent])
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }

    @Test func sequencesImportsOnMissAndHitsOnSameBytes() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache"))
        let source = directory.file("clip.json")
        try Data("version one".utf8).write(to: source)
        let calls = Counter()
        let fingerprint = ImporterFingerprint(importer: "openpose-json", version: "3")
        func load(_ url: URL, layout: String = "vision18") throws -> (sequences: [LabeledSequence], key: CacheKey, sourceHash: ContentHash, hit: Bool) {
            try cache.sequences(source: url, fingerprint: fingerprint, layoutName: layout, frameRate: 30) {
                calls.increment()
                return sampleSequences(count: 2)
            }
        }
        let first = try load(source)
        #expect(!first.hit && calls.value == 1)
        let second = try load(source)
        #expect(second.hit && calls.value == 1 && second.key == first.key)
        expectBitExact(second.sequences, first.sequences)

        // Same bytes elsewhere: same key, still a hit.
        let copy = directory.file("renamed.json")
        try FileManager.default.copyItem(at: source, to: copy)
        #expect(try load(copy).hit && calls.value == 1)

        // Another layout: another key.
        let otherLayout = try load(source, layout: "coco17")
        #expect(!otherLayout.hit && otherLayout.key != first.key && calls.value == 2)

        // Changed bytes: new key, re-import.
        try Data("version two".utf8).write(to: source)
        let third = try load(source)
        #expect(!third.hit && third.key != first.key && calls.value == 3)
        #expect(try load(source).hit && calls.value == 3)
    }

    @Test func importerErrorsPropagateAndStoreNothing() throws {
        struct ImportFailed: Error {}
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache"))
        let source = directory.file("clip.json")
        try Data("x".utf8).write(to: source)
        #expect(throws: ImportFailed.self) {
            try cache.sequences(source: source, fingerprint: ImporterFingerprint(importer: "i", version: "1"), layoutName: "vision18", frameRate: 30) {
                throw ImportFailed()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
    }

    @Test func inconsistentSequenceIsRejectedBeforeWriting() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        var sequences = sampleSequences(count: 1)
        sequences[0].sequence.keypoints.removeLast()
        let entry = try makeEntry(sequences)
        #expect(throws: FeatureCacheError.invalidSequence(id: "clip.mp4#0", reason: "269 keypoint values for [T, C, J] = [5, 3, 18]")) {
            try cache.store(entry)
        }
        #expect(try cache.lookup(key: entry.key) == nil)
        let shard = cache.url(for: entry.key).deletingLastPathComponent().path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: shard)) ?? []).isEmpty)
    }

    @Test func concurrentStoresOfOneKeyLeaveAReadableEntry() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let entry = try makeEntry(sampleSequences(count: 6, frames: 200))
        let failures = Counter()
        let misses = Counter()
        DispatchQueue.concurrentPerform(iterations: 12) { worker in
            do {
                for _ in 0..<3 {
                    if worker % 3 == 0 {
                        if try cache.lookup(key: entry.key) == nil { misses.increment() }
                    } else {
                        try cache.store(entry)
                    }
                }
            } catch {
                failures.increment()
            }
        }
        #expect(failures.value == 0)
        let read = try #require(try cache.lookup(key: entry.key))
        expectBitExact(read.sequences, entry.sequences)
        let shardFiles = try FileManager.default.contentsOfDirectory(atPath: cache.url(for: entry.key).deletingLastPathComponent().path)
        #expect(shardFiles == ["\(entry.key.hexDigest).h5"])
    }

    @Test func h5pyReadsACacheEntry() throws {
        guard try PythonOracle.requireH5py() else { return }
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let entry = try makeEntry()
        try cache.store(entry)
        let script = """
            import h5py, json, sys
            with h5py.File(sys.argv[1], "r") as f:
                s = f["sequences/000001"]
                print(json.dumps({
                    "format": f.attrs["format"], "format_version": int(f.attrs["format_version"]),
                    "key": f.attrs["key"], "layout": f.attrs["layout"], "frame_rate": float(f.attrs["frame_rate"]),
                    "created": f.attrs["created"], "sequence_count": int(f.attrs["sequence_count"]),
                    "children": sorted(f["sequences"].keys()),
                    "shape": list(s["keypoints"].shape), "dtype": str(s["keypoints"].dtype),
                    "last": float(s["keypoints"][-1, -1, -1]), "timestamps": [float(x).hex() for x in s["timestamps"][()]],
                    "id": s.attrs["id"], "label": s.attrs["label"], "group": s.attrs["group"],
                }))
            """
        let json = try #require(try PythonOracle.json(script, arguments: [cache.url(for: entry.key).path]) as? [String: Any])
        let second = entry.sequences[1]
        #expect(json["format"] as? String == "actionlab-feature-cache")
        #expect(json["format_version"] as? Int == 1)
        #expect(json["key"] as? String == entry.key.hexDigest)
        #expect(json["layout"] as? String == "vision18")
        #expect(json["frame_rate"] as? Double == 29.97)
        #expect(json["created"] as? String == "2023-11-14T22:13:20Z")
        #expect(json["sequence_count"] as? Int == 3)
        #expect(json["children"] as? [String] == ["000000", "000001", "000002"])
        #expect(json["shape"] as? [Int] == [second.sequence.frameCount, 3, 18])
        #expect(json["dtype"] as? String == "float32")
        #expect((json["last"] as? Double).map(Float.init) == second.sequence.keypoints.last)
        // Hexadecimal floats, since JSON decimal text need not round-trip through Foundation.
        #expect((json["timestamps"] as? [String])?.map { Double($0)?.bitPattern } == second.sequence.timestamps.map(\.bitPattern))
        #expect(json["id"] as? String == second.id)
        #expect(json["label"] as? String == second.label)
        #expect(json["group"] as? String == second.group)
    }
}

@Suite struct AbandonedTemporaryFileTests {
    /// A killed import leaves `<key>.<pid>.<UUID>.tmp`; the next run removes it once that pid
    /// is gone, and never touches a live writer's file.
    @Test func temporaryFilesOfDeadWritersAreRemovedAndLiveOnesKept() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let shard = directory.file("ab")
        try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let key = String(repeating: "ab", count: 32)
        let dead = shard.appendingPathComponent("\(key).\(finished.processIdentifier).\(UUID().uuidString).tmp")
        let live = shard.appendingPathComponent("\(key).\(getpid()).\(UUID().uuidString).tmp")
        try Data("partial".utf8).write(to: dead)
        try Data("partial".utf8).write(to: live)
        let removed = try cache.removeAbandonedTemporaryFiles()
        #expect(removed.map(\.lastPathComponent) == [dead.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    /// On a cache that cluster nodes share, a pid of another machine says nothing: its file goes
    /// only once it is an hour old, while this machine's files follow their writer's pid.
    @Test func temporaryFilesOfOtherMachinesAreRemovedByAgeOnly() throws {
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: directory.url)
        let shard = directory.file("cd")
        try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        let key = String(repeating: "cd", count: 32)
        // pid 1 runs here; on another machine it says nothing either way.
        let recent = shard.appendingPathComponent("\(key).1@other-node.\(UUID().uuidString).tmp")
        let old = shard.appendingPathComponent("\(key).2@other-node.\(UUID().uuidString).tmp")
        let liveHere = shard.appendingPathComponent("\(key).\(getpid())@\(ProcessLiveness.hostTag).\(UUID().uuidString).tmp")
        for file in [recent, old, liveHere] { try Data("partial".utf8).write(to: file) }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: old.path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: liveHere.path)
        let removed = try cache.removeAbandonedTemporaryFiles()
        #expect(removed.map(\.lastPathComponent) == [old.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: recent.path) && FileManager.default.fileExists(atPath: liveHere.path))
        #expect(!ProcessLiveness.hostTag.contains(".") && !ProcessLiveness.hostTag.isEmpty)
    }
}
