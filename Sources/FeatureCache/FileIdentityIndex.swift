import AtomicFiles
import ContentHashing
import Foundation

/// Remembers the content hash of each source file under its identity (path, size, modification
/// and status-change times, inode, device), so that an unchanged file is not read again to hash it.
///
/// The index in front of ``ContentHash``, as git's index is in front of its object hashes: a file
/// whose `stat(2)` identity equals the recorded one gets the recorded hash; any other file is read
/// and hashed, and its new identity recorded. Editing a file changes its modification time,
/// `touch` and `chmod` its status-change time (which a user cannot set back), and replacing it
/// its inode, so a changed file is always hashed again.
///
/// **Racy files.** Timestamps have a granularity (a clock tick on ext4, 2 s on FAT): a file
/// written again within the same tick as the hashed version keeps its times and size. Like
/// git's "racily clean" entries, a record is trusted only if the file's modification and
/// status-change times are at least ``racyMargin`` (default ``defaultRacyMargin``) older than
/// the moment its hash was started; a file modified closer to that moment is hashed again on
/// every run until it is older.
///
/// **Storage.** One file in the cache folder, ``fileName``, read on first use and written by
/// ``save()`` atomically (``AtomicFile``), versioned and covered by a SHA-256 checksum
/// (layout: `FileIdentityIndex+Format.swift`). A file that fails its checks is not trusted: it is
/// ignored, reported once (``takeDamageReport()``) and replaced at the next save. Concurrent
/// runs on one cache each merge their records into what is on disk when they save, and each
/// write is a rename of a complete file, so the last writer wins and a lost record only costs a
/// hash. Records of files that no longer exist stay until the index is deleted.
///
/// Safe to use from several threads at once.
public final class FileIdentityIndex: @unchecked Sendable {
    /// The index file's name inside the cache folder.
    public static let fileName = "file-identities.v1"
    /// How much older than the start of its hashing a file's times must be for its record to be
    /// trusted: 2 s, the coarsest common timestamp granularity (FAT), in nanoseconds.
    public static let defaultRacyMargin: Int64 = 2_000_000_000

    /// The index file.
    public let url: URL
    /// How much older than the start of its hashing, in nanoseconds, a file's times must be for
    /// its record to be trusted.
    public let racyMargin: Int64
    /// Guards every property below; `@unchecked Sendable` rests on it.
    private let lock = NSLock()
    private var isLoaded = false
    private var records: [String: Record] = [:]
    /// Records made by this process since the last save, merged into the file by ``save()``.
    private var added: [String: Record] = [:]
    private var damage: String?
    private var hitCount = 0
    private var hashedCount = 0

    /// A file's identity when it was hashed, the moment hashing started, and its hash.
    struct Record: Equatable {
        var identity: FileIdentity
        /// `CLOCK_REALTIME` in nanoseconds since 1970 when the file was stat'ed and hashing began.
        var hashedAt: Int64
        var hash: ContentHash

        /// Whether the file's times are at least `margin` ns before `hashedAt`, so that no write in
        /// the same timestamp tick can have followed the hashed content (see the type's discussion).
        func isTrusted(margin: Int64) -> Bool {
            max(identity.modified, identity.changed) <= hashedAt - margin
        }
    }

    /// The index of the cache folder `directory`; nothing is read until first use.
    /// - Parameters:
    ///   - directory: The cache folder.
    ///   - racyMargin: Nanoseconds; ``defaultRacyMargin`` unless a test needs files it has just
    ///     written to count as settled.
    public init(directory: URL, racyMargin: Int64 = FileIdentityIndex.defaultRacyMargin) {
        url = directory.appendingPathComponent(Self.fileName)
        self.racyMargin = max(0, racyMargin)
    }

    /// The SHA-256 of a file's bytes, from the index if the file's identity is unchanged, else
    /// read and hashed (``ContentHash/sha256(ofFileAt:chunkSize:)``) and recorded.
    ///
    /// - Parameter url: a file URL; recorded under its absolute, standardized path.
    /// - Returns: the same hash as ``ContentHash/sha256(ofFileAt:chunkSize:)``.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` if the file cannot be read,
    ///   ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public func contentHash(ofFileAt url: URL) throws -> ContentHash {
        try contentHash(atPath: url.standardizedFileURL.path)
    }

    /// ``contentHash(ofFileAt:)`` of the file at `path`, which is absolute and standardized.
    /// - Parameter keep: If given, a file the index does not know and of at most
    ///   ``HashedFolder/largestKeptFile`` bytes is read whole and its bytes passed to `keep`
    ///   (read once for the hash and for an importer); else it is hashed in chunks.
    /// - Parameter entry: The file as a name in an open folder (``WholeFile/read(atPath:entry:largest:)``).
    private func contentHash(atPath path: String, entry: FolderEntry? = nil, keep: ((Data) -> Void)? = nil) throws -> ContentHash {
        let known = record(for: path)
        // A file the index does not know is opened at once, its identity taken from the open file
        // (no `stat` of the path: on a first import that is one path lookup less per file).
        if known == nil, let keep {
            let started = Self.now()
            if let file = try WholeFile.read(atPath: path, entry: entry, largest: HashedFolder.largestKeptFile) {
                let hash = try ContentHash.sha256(of: file.bytes)
                remember(path, hash: hash, before: file.before, after: file.after, hashedAt: started)
                keep(file.bytes)
                return hash
            }
        }
        guard let before = FileIdentity(path: path, entry: entry) else { return try ContentHash.sha256(ofFileAt: URL(fileURLWithPath: path)) }
        if let known, known.identity == before, known.isTrusted(margin: racyMargin) {
            lock.withLock { hitCount += 1 }
            return known.hash
        }
        let started = Self.now()
        let hash: ContentHash
        let after: FileIdentity?
        if let keep, before.size <= HashedFolder.largestKeptFile,
           let file = try WholeFile.read(atPath: path, entry: entry, largest: HashedFolder.largestKeptFile) {
            hash = try ContentHash.sha256(of: file.bytes)
            after = file.after
            keep(file.bytes)
        } else {
            hash = try ContentHash.sha256(ofFileAt: URL(fileURLWithPath: path, isDirectory: false))
            after = FileIdentity(path: path)
        }
        remember(path, hash: hash, before: before, after: after, hashedAt: started)
        return hash
    }

    /// Counts a hashed file and records its hash under `before`, unless the file changed while it
    /// was read (`after` differs): then its hash may mix two versions, and it is not recorded.
    private func remember(_ path: String, hash: ContentHash, before: FileIdentity?, after: FileIdentity?, hashedAt started: Int64) {
        lock.withLock {
            hashedCount += 1
            if let before, after == before {
                let record = Record(identity: before, hashedAt: started, hash: hash)
                records[path] = record
                added[path] = record
            }
        }
    }

    /// The hash of ``ContentHash/sha256(ofFolderAt:fileExtension:)``, each file's hash taken from
    /// ``contentHash(ofFileAt:)``.
    /// - Throws: As ``ContentHash/sha256(ofFolderAt:fileExtension:)``.
    public func contentHash(ofFolderAt url: URL, fileExtension: String) throws -> ContentHash {
        try ContentHash.sha256(ofFolderAt: url, fileExtension: fileExtension) { path, _, entry in try contentHash(atPath: path, entry: entry) }
    }

    /// ``contentHash(ofFolderAt:fileExtension:)``, keeping the bytes of the files it had to read,
    /// so that an importer of the folder reads each file once on a first import.
    ///
    /// A file the index knows is not read (its bytes are not kept); one it does not know is read
    /// whole, hashed and kept, up to ``HashedFolder/keptBytesLimit`` bytes for the folder (later
    /// files are hashed in chunks and not kept).
    /// - Parameters:
    ///   - url: The folder.
    ///   - fileExtension: The extension of the files that count, without the dot.
    /// - Returns: The folder's hash and the kept bytes by file name.
    /// - Throws: As ``ContentHash/sha256(ofFolderAt:fileExtension:)``.
    public func hashFolder(at url: URL, fileExtension: String) throws -> HashedFolder {
        var kept: [String: Data] = [:]
        var keptBytes = 0
        let hash = try ContentHash.sha256(ofFolderAt: url, fileExtension: fileExtension) { path, name, entry in
            let keep: ((Data) -> Void)? = keptBytes < HashedFolder.keptBytesLimit ? { bytes in
                keptBytes += bytes.count
                kept[name] = bytes
            } : nil
            return try contentHash(atPath: path, entry: entry, keep: keep)
        }
        return HashedFolder(hash: hash, readFiles: kept)
    }

    /// How many hashes came from the index and how many were computed by reading the file, since
    /// this index was made.
    public var statistics: (hits: Int, hashed: Int) {
        lock.withLock { (hitCount, hashedCount) }
    }

    /// Why the index file was not used (one line naming the file), once; nil if it was fine,
    /// absent, or already reported.
    public func takeDamageReport() -> String? {
        lock.withLock {
            defer { damage = nil }
            return damage
        }
    }

    /// Writes the records made since the last save into the index file, merged with the records
    /// another process may have saved meanwhile (this process's records win for the same path).
    ///
    /// Does nothing when no file was hashed. The write is atomic: a reader or a killed process
    /// sees the old index or the new one.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the file cannot be
    ///   written; the records are kept for the next save.
    public func save() throws {
        try lock.withLock {
            guard !added.isEmpty else { return }
            // A damaged or unreadable file on disk is simply replaced; with none (a first import),
            // the records made here are the index.
            var merged: [String: Record]
            if FileManager.default.fileExists(atPath: url.path), let saved = try? Self.decode(Data(contentsOf: url), file: url.path) {
                merged = saved
                merged.merge(added) { _, ours in ours }
            } else {
                merged = added
            }
            do {
                try AtomicFile.write(Self.encode(merged), to: url)
            } catch let error as AtomicFileError {
                throw FeatureCacheError.cannotWrite(file: error.path, operation: error.operation, reason: error.reason)
            }
            records = merged
            added = [:]
            isLoaded = true
        }
    }

    /// The record of `path`, loading the index file on first use.
    private func record(for path: String) -> Record? {
        lock.withLock {
            if !isLoaded {
                isLoaded = true
                load()
            }
            return records[path]
        }
    }

    /// Reads the index file into `records`; a damaged one is noted in `damage` and ignored.
    /// Called with the lock held.
    private func load() {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw FileIdentityIndexError(file: url.path, offset: 0, reason: "cannot read: \(FileErrorReason.of(error))")
            }
            records.merge(try Self.decode(data, file: url.path)) { ours, _ in ours }
        } catch {
            damage = "\(error); ignored, every source file is hashed again and the index rewritten"
        }
    }

    /// `CLOCK_REALTIME` now, in nanoseconds since 1970 (the clock file times are stamped with).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
