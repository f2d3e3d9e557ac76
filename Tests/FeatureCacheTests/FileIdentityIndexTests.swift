import ActionLabTestSupport
import ContentHashing
import FeatureCache
import Foundation
import Testing

/// The file-identity index in front of the content hash: unchanged files are not read again, a
/// changed, touched or replaced file is, racy files are never trusted, and a damaged index file
/// is ignored with one report.
@Suite struct FileIdentityIndexTests {
    /// A folder with `count` small files `f<i>.json`, returned in order.
    static func files(_ count: Int, in directory: TemporaryDirectory) throws -> [URL] {
        try (0..<count).map { index in
            let url = directory.file("data/f\(index).json")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{\"people\": [\(index)]}".utf8).write(to: url)
            return url
        }
    }

    /// Sets a file's modification time back to `seconds` since 1970 (its status-change time
    /// cannot be set: it becomes now).
    static func setModificationTime(of url: URL, seconds: Int) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }

    /// A new index of the cache folder `cache` (margin `racyMargin` ns) that has hashed `files`.
    static func index(_ cache: URL, hashing files: [URL], racyMargin: Int64 = 0) throws -> FileIdentityIndex {
        let index = FileIdentityIndex(directory: cache, racyMargin: racyMargin)
        for file in files { _ = try index.contentHash(ofFileAt: file) }
        return index
    }

    @Test func anUnchangedFileIsNotReadAgainAndGivesTheSameHash() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(3, in: directory)
        let cache = directory.file("cache")
        let first = FileIdentityIndex(directory: cache, racyMargin: 0)
        let hashes = try files.map { try first.contentHash(ofFileAt: $0) }
        #expect(hashes == (try files.map { try ContentHash.sha256(ofFileAt: $0) }))
        #expect(first.statistics == (hits: 0, hashed: 3))
        try first.save()
        let second = FileIdentityIndex(directory: cache, racyMargin: 0)
        #expect(try files.map { try second.contentHash(ofFileAt: $0) } == hashes)
        #expect(second.statistics == (hits: 3, hashed: 0))
        #expect(second.takeDamageReport() == nil)
    }

    @Test func aChangedTouchedOrReplacedFileIsHashedAgain() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(4, in: directory)
        let cache = directory.file("cache")
        let first = try Self.index(cache, hashing: files)
        try first.save()
        // Same size, new bytes, modification time set back to what it was: only st_ctim tells.
        let before = try FileManager.default.attributesOfItem(atPath: files[0].path)[.modificationDate] as? Date
        try Data("{\"people\": [9]}".utf8).write(to: files[0])
        try Self.setModificationTime(of: files[0], seconds: Int(before?.timeIntervalSince1970 ?? 0))
        // Touched: same bytes, new times.
        try Self.setModificationTime(of: files[1], seconds: 1_000_000_000)
        // Replaced by another file with other bytes (new inode).
        let replacement = directory.file("replacement.json")
        try Data("{\"people\": [7, 7]}".utf8).write(to: replacement)
        #expect(rename(replacement.path, files[2].path) == 0)
        let second = FileIdentityIndex(directory: cache, racyMargin: 0)
        for file in files {
            #expect(try second.contentHash(ofFileAt: file) == (try ContentHash.sha256(ofFileAt: file)), "\(file.lastPathComponent)")
        }
        #expect(second.statistics == (hits: 1, hashed: 3))
    }

    @Test func aFileModifiedWithinTheMarginIsNeverTrusted() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(2, in: directory)
        let cache = directory.file("cache")
        // Just written: within a margin of an hour of being hashed, so racy.
        try Self.index(cache, hashing: files, racyMargin: 3_600_000_000_000).save()
        let second = try Self.index(cache, hashing: files, racyMargin: 3_600_000_000_000)
        #expect(second.statistics == (hits: 0, hashed: 2))
    }

    @Test(arguments: [0, 30, 40, 60, -1])
    func aDamagedIndexIsReportedOnceIgnoredAndRewritten(flippedByte: Int) throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(2, in: directory)
        let cache = directory.file("cache")
        let first = try Self.index(cache, hashing: files)
        try first.save()
        var bytes = [UInt8](try Data(contentsOf: first.url))
        let position = flippedByte >= 0 ? flippedByte : bytes.count - 1
        bytes[position] ^= 0x40
        try Data(bytes).write(to: first.url)
        let second = FileIdentityIndex(directory: cache, racyMargin: 0)
        let hashes = try files.map { try second.contentHash(ofFileAt: $0) }
        #expect(hashes == (try files.map { try ContentHash.sha256(ofFileAt: $0) }))
        #expect(second.statistics == (hits: 0, hashed: 2))
        let report = try #require(second.takeDamageReport())
        #expect(report.contains(first.url.path), "\(report)")
        #expect(second.takeDamageReport() == nil)
        try second.save()
        let third = try Self.index(cache, hashing: files)
        #expect(third.statistics == (hits: 2, hashed: 0))
        #expect(third.takeDamageReport() == nil)
    }

    @Test func twoWritersMergeTheirRecords() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(4, in: directory)
        let cache = directory.file("cache")
        let one = try Self.index(cache, hashing: Array(files.prefix(2)))
        let other = try Self.index(cache, hashing: Array(files.suffix(2)))
        try one.save()
        try other.save()
        let reader = try Self.index(cache, hashing: files)
        #expect(reader.statistics == (hits: 4, hashed: 0))
    }

    @Test func aFolderHashEqualsTheUnindexedOne() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.files(5, in: directory)
        let folder = directory.file("data")
        let index = FileIdentityIndex(directory: directory.file("cache"), racyMargin: 0)
        let expected = try ContentHash.sha256(ofFolderAt: folder, fileExtension: "json")
        #expect(try index.contentHash(ofFolderAt: folder, fileExtension: "json") == expected)
        #expect(try index.contentHash(ofFolderAt: folder, fileExtension: "json") == expected)
        #expect(index.statistics == (hits: 5, hashed: 5))
    }

    @Test func aHashedFolderKeepsTheBytesItReadAndNoneFromTheIndex() throws {
        let directory = try TemporaryDirectory()
        let files = try Self.files(4, in: directory)
        try Data("not a frame".utf8).write(to: directory.file("data/notes.txt"))
        let folder = directory.file("data")
        let cache = directory.file("cache")
        let expected = try ContentHash.sha256(ofFolderAt: folder, fileExtension: "json")
        let first = FileIdentityIndex(directory: cache, racyMargin: 0)
        let read = try first.hashFolder(at: folder, fileExtension: "json")
        #expect(read.hash == expected)
        #expect(read.readFiles == Dictionary(uniqueKeysWithValues: try files.map { ($0.lastPathComponent, try Data(contentsOf: $0)) }))
        try first.save()
        let second = FileIdentityIndex(directory: cache, racyMargin: 0)
        let known = try second.hashFolder(at: folder, fileExtension: "json")
        #expect(known.hash == expected)
        #expect(known.readFiles.isEmpty, "files the index knows are not read")
        #expect(second.statistics == (hits: 4, hashed: 0))
        // One file changed: only it is read (and kept), and the hash follows it.
        try Data("{\"people\": [42, 42]}".utf8).write(to: files[2])
        let third = FileIdentityIndex(directory: cache, racyMargin: 0)
        let changed = try third.hashFolder(at: folder, fileExtension: "json")
        #expect(changed.hash == (try ContentHash.sha256(ofFolderAt: folder, fileExtension: "json")))
        #expect(changed.hash != expected)
        #expect(changed.readFiles == ["f2.json": Data("{\"people\": [42, 42]}".utf8)])
    }
}
