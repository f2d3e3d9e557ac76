import ActionLabTestSupport
import ContentHashing
@testable import FeatureCache
import Foundation
import HDF5
import Pose
import Testing

/// Issue 15, item 1: a cache entry is verified (checksum, then finite values) before it is used;
/// a bad one is moved aside, reported once and imported again.
@Suite struct EntryVerificationTests {
    /// Collects reports from any thread.
    ///
    /// `@unchecked Sendable`: `reports` is read and written only with `lock` held.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [DiscardedEntry] = []
        func append(_ report: DiscardedEntry) { lock.lock(); reports.append(report); lock.unlock() }
        var all: [DiscardedEntry] { lock.lock(); defer { lock.unlock() }; return reports }
    }

    /// A cache in a fresh folder whose reports are collected, with one stored entry.
    struct Fixture {
        let directory: TemporaryDirectory
        let reports = Reports()
        let cache: FeatureCache
        let entry: CacheEntry
        var url: URL { cache.url(for: entry.key) }

        init(_ sequences: [LabeledSequence] = sampleSequences()) throws {
            directory = try TemporaryDirectory()
            let reports = self.reports
            cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache")) { reports.append($0) }
            entry = try Self.lookUp(in: cache, sequences: sequences, imports: Counter()).entry
        }

        /// Looks the entry up as `DatasetLoader` does, importing `sequences` on a miss.
        static func lookUp(in cache: FeatureCache, sequences: [LabeledSequence], imports: Counter) throws -> (entry: CacheEntry, hit: Bool) {
            try cache.entry(
                sourcePath: "/data/clip.mp4", sourceHash: ContentHash.sha256(of: "source bytes"),
                fingerprint: ImporterFingerprint(importer: "test", version: "1"), layoutName: "vision18", frameRate: 29.97
            ) {
                imports.increment()
                return ImportedContents(sequences: sequences)
            }
        }

        /// Looks the entry up again, importing its sequences on a miss.
        func lookUp(imports: Counter = Counter()) throws -> (entry: CacheEntry, hit: Bool) {
            try Self.lookUp(in: cache, sequences: entry.sequences, imports: imports)
        }

        /// Flips the bits of `mask` in the byte at `offset`.
        func flip(at offset: Int, mask: UInt8 = 0x40) throws {
            var bytes = try Data(contentsOf: url)
            bytes[offset] ^= mask
            try bytes.write(to: url)
        }

        /// The file offset of byte `byte` of `dataset`'s data (h5py: `get_offset` for contiguous
        /// data, the first chunk's `byte_offset` for chunked data), found by h5py.
        func offset(of dataset: String, byte: Int = 0) throws -> Int {
            let script = """
                import sys, h5py
                with h5py.File(sys.argv[1], "r") as f:
                    d = f[sys.argv[2]]
                    print(d.id.get_offset() if d.chunks is None else d.id.get_chunk_info(0).byte_offset)
                """
            let result = try PythonOracle.run(script, arguments: [url.path, dataset])
            let offset = try #require(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.errorOutput)")
            return offset + byte
        }

        /// Expects exactly one report, of a damaged entry moved aside, naming its source.
        func expectOneDamagedEntryMovedAside(sourceLocation: SourceLocation = #_sourceLocation) {
            let all = reports.all
            #expect(all.count == 1, "\(all)", sourceLocation: sourceLocation)
            guard let report = all.first else { return }
            guard case .damagedEntry = report.reason, case let .movedAside(aside) = report.disposition else {
                Issue.record("unexpected report: \(report)", sourceLocation: sourceLocation)
                return
            }
            #expect(report.entry == url, sourceLocation: sourceLocation)
            #expect(FileManager.default.fileExists(atPath: aside.path), sourceLocation: sourceLocation)
            #expect(report.description.contains(url.path) && report.description.contains("'/data/clip.mp4'")
                && report.description.contains("moved aside to"), "\(report)", sourceLocation: sourceLocation)
        }
    }

    @Test func storedEntryStartsWithItsChecksumAndPassesIt() throws {
        let fixture = try Fixture()
        let bytes = try Data(contentsOf: fixture.url)
        let header = String(decoding: bytes.prefix(EntryChecksum.headerSize).prefix { $0 != 0 }, as: UTF8.self)
        let expected = try ContentHash.sha256(of: bytes.dropFirst(EntryChecksum.headerSize))
        #expect(header == "actionlab-feature-cache checksum 1\nsha256 \(expected)\nbytes \(bytes.count - 512)\n")
        try EntryChecksum.verify(fileAt: fixture.url)
        #expect(try fixture.lookUp().hit)
        #expect(fixture.reports.all.isEmpty)
    }

    /// Before: a flipped keypoint byte trained on silently (5 of 25 trials changed their metrics).
    @Test func flippedKeypointByteIsFoundAndTheSourceImportedAgain() throws {
        let fixture = try Fixture()
        try fixture.flip(at: fixture.offset(of: "sequences/000001/keypoints", byte: 41))
        let imports = Counter()
        let result = try fixture.lookUp(imports: imports)
        #expect(!result.hit && imports.value == 1)
        expectBitExact(result.entry.sequences, fixture.entry.sequences)
        fixture.expectOneDamagedEntryMovedAside()
        // The new entry is good: the next lookup hits without a report.
        #expect(try fixture.lookUp(imports: imports).hit && imports.value == 1 && fixture.reports.all.count == 1)
    }

    /// Before: a NaN written with h5py trained to the end. The checksum catches the edit; a NaN
    /// behind a valid checksum is rejected by the value check.
    @Test(arguments: [false, true])
    func nanWrittenWithH5pyIsRejected(restamped: Bool) throws {
        let fixture = try Fixture()
        let script = """
            import sys, h5py, numpy
            with h5py.File(sys.argv[1], "r+") as f:
                f["sequences/000002/keypoints"][3, 1, 7] = numpy.nan
            """
        let result = try PythonOracle.run(script, arguments: [fixture.url.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        if restamped { try EntryChecksum.stamp(fileAt: fixture.url) }
        let error = try #require(throws: FeatureCacheError.self) { try CacheEntry(contentsOf: fixture.url) }
        if restamped {
            #expect(error == .malformedEntry(
                file: fixture.url.path, object: "/sequences/000002/keypoints",
                reason: "keypoint [frame 3, channel 1, joint 7] is nan, not a finite number"))
        } else {
            guard case .damagedEntry = error else { Issue.record("unexpected \(error)"); return }
        }
        let looked = try fixture.lookUp()
        #expect(!looked.hit && looked.entry.sequences.allSatisfy { $0.sequence.firstNonFiniteValue() == nil })
        #expect(fixture.reports.all.count == 1)
    }

    /// Before: a flipped byte in HDF5 metadata (a string's length in the global heap) made
    /// libhdf5 1.10.8 crash the process; now the checksum rejects the file before HDF5 opens it.
    @Test func flippedMetadataByteNeverReachesHDF5() throws {
        let fixture = try Fixture()
        let bytes = try Data(contentsOf: fixture.url)
        // A global heap object is 2 bytes index, 2 reference count, 4 reserved, 8 size, then data.
        let text = try #require(bytes.range(of: Data(fixture.entry.sourcePath.utf8)))
        try fixture.flip(at: text.lowerBound - 8, mask: 0x7f)
        let error = try #require(throws: FeatureCacheError.self) { try CacheEntry.index(contentsOf: fixture.url) }
        guard case let .damagedEntry(file, reason) = error else { Issue.record("unexpected \(error)"); return }
        #expect(file == fixture.url.path && reason.contains("SHA-256"))
        #expect(try !fixture.lookUp().hit)
        fixture.expectOneDamagedEntryMovedAside()
    }

    /// Before: a damaged gzip chunk passed the index (shapes only) and failed every batch read,
    /// on every rerun, until the entry was deleted by hand.
    @Test func damagedCompressedChunkIsImportedAgainOnceAndThenHits() throws {
        let frames = 200
        let long = LabeledSequence(id: "long", label: "walk", group: "g", sequence: PoseSequence(
            keypoints: (0..<(frames * 3 * 18)).map { Float($0 % 1_000) * 0.001 },
            timestamps: PoseSequence.uniformTimestamps(frameCount: frames, frameRate: 30), channelCount: 3, jointCount: 18,
            frameRate: 30))
        #expect(long.sequence.keypoints.count >= CacheEntry.compressionThreshold)
        let directory = try TemporaryDirectory()
        let source = directory.file("clip.csv")
        try Data("source".utf8).write(to: source)
        let reports = Reports()
        let cache = try FeatureCache(directory: directory.url.appendingPathComponent("cache")) { reports.append($0) }
        let imports = Counter()
        func index() throws -> (sequences: [CachedSequence], hit: Bool) {
            let result = try cache.sequenceIndex(
                source: source, fingerprint: ImporterFingerprint(importer: "test", version: "1"), layoutName: "vision18",
                frameRate: 30) { imports.increment(); return [long] }
            return (result.sequences, result.hit)
        }
        let first = try index()
        let url = first.sequences[0].entry
        let chunk = try PythonOracle.run(
            "import sys, h5py\nwith h5py.File(sys.argv[1], 'r') as f: print(f['sequences/000000/keypoints'].id.get_chunk_info(0).byte_offset)",
            arguments: [url.path])
        var bytes = try Data(contentsOf: url)
        bytes[try #require(Int(chunk.output.trimmingCharacters(in: .whitespacesAndNewlines))) + 100] ^= 0xff
        try bytes.write(to: url)
        let second = try index()
        #expect(!second.hit && imports.value == 2 && reports.all.count == 1)
        #expect(try second.sequences[0].read().sequence.keypoints == long.sequence.keypoints)
        let third = try index()
        #expect(third.hit && imports.value == 2 && reports.all.count == 1)
    }

    @Test(arguments: ["truncated", "extended", "header"])
    func lengthAndHeaderDamageIsFound(kind: String) throws {
        let fixture = try Fixture()
        var bytes = try Data(contentsOf: fixture.url)
        switch kind {
        case "truncated": bytes.removeLast(10)
        case "extended": bytes.append(contentsOf: [1, 2, 3])
        default: bytes[3] = UInt8(ascii: "X")
        }
        try bytes.write(to: fixture.url)
        #expect(throws: FeatureCacheError.self) { try EntryChecksum.verify(fileAt: fixture.url) }
        #expect(try !fixture.lookUp().hit)
        fixture.expectOneDamagedEntryMovedAside()
    }

    /// Entries written before checksums are imported again and replaced (not stamped as good).
    @Test func entryWithoutChecksumIsImportedAgainAndReplaced() throws {
        let fixture = try Fixture()
        let legacy = try HDF5File.create(at: fixture.url)
        try legacy.root().attributes.write("actionlab-feature-cache", named: "format")
        try legacy.close()
        let imports = Counter()
        #expect(try !fixture.lookUp(imports: imports).hit && imports.value == 1)
        let reports = fixture.reports.all
        #expect(reports.count == 1)
        #expect(reports.first?.reason == .unverifiedEntry(file: fixture.url.path))
        #expect(reports.first?.disposition == .replacedOnImport)
        #expect(reports.first?.description.contains("has no checksum") == true)
        try EntryChecksum.verify(fileAt: fixture.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.url.deletingLastPathComponent().path).count == 1)
    }

    @Test func nonFiniteValuesAreNotStored() throws {
        var sequences = sampleSequences(count: 1)
        sequences[0].sequence.keypoints[5] = -.infinity
        let error = try #require(throws: FeatureCacheError.self) { try makeEntry(sequences).fileContents() }
        #expect(error == .invalidSequence(id: "clip.mp4#0", reason: "keypoint [frame 0, channel 0, joint 5] is -inf, not a finite number"))
        sequences = sampleSequences(count: 1)
        sequences[0].sequence.timestamps[2] = .nan
        #expect(throws: FeatureCacheError.invalidSequence(id: "clip.mp4#0", reason: "timestamp of frame 2 is nan, not a finite number")) {
            try makeEntry(sequences).fileContents()
        }
    }

    /// Item 15: a read-only cache said a corrupt entry "was set aside" when it could not move it.
    @Test func readOnlyCacheSaysTheEntryIsStillThere() throws {
        let mount: TemporaryMount
        do {
            mount = try TemporaryMount(sizeKiB: 1_024)
        } catch {
            try Test.cancel("skipped: \(error)")
        }
        let directory = try TemporaryDirectory()
        let cache = try FeatureCache(directory: mount.url.appendingPathComponent("cache"))
        let entry = try makeEntry()
        try cache.store(entry)
        var bytes = try Data(contentsOf: cache.url(for: entry.key))
        bytes[bytes.count - 20] ^= 1
        try bytes.write(to: cache.url(for: entry.key))
        try mount.makeReadOnly()
        let reports = Reports()
        let readOnly = try FeatureCache(directory: mount.url.appendingPathComponent("cache")) { reports.append($0) }
        let error = try #require(throws: FeatureCacheError.self) { try readOnly.lookup(key: entry.key, source: "/data/clip.mp4") }
        guard case let .cannotSetAside(file, source, damage, reason) = error else { Issue.record("unexpected \(error)"); return }
        #expect(file == cache.url(for: entry.key).path && source == "/data/clip.mp4")
        #expect(damage.hasPrefix("damaged: SHA-256") && reason == "Read-only file system")
        #expect(error.description.contains("could not be moved aside") && error.description.contains("it is still there"))
        #expect(reports.all.isEmpty)
        #expect(FileManager.default.fileExists(atPath: cache.url(for: entry.key).path))
        _ = directory
    }
}
