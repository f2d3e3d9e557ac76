import AtomicFiles
import Foundation
import HDF5
import Pose

/// A content-addressed, crash-safe store of imported pose sequences, one HDF5 file per entry.
///
/// An entry lives at `<directory>/<key[0..<2]>/<key>.h5` (layout: ``CacheEntry``). Entries are
/// written to a unique temporary file in the same folder (`<key>.<pid>.<UUID>.tmp`), flushed
/// with `fsync(2)` and renamed into place with `rename(2)`, which is atomic: a reader sees the
/// old entry, the new one or none, never half a file, even if the writer is killed. Processes
/// that store the same key at once each rename a complete file; the last one wins, and since the
/// key fixes the content, every winner is right.
///
/// A file at an entry's path that cannot be read or validated is treated as a miss: it is
/// renamed aside to `<key>.h5.corrupt-<UUID>` for inspection and reported to the
/// `onDiscardedEntry` handler. Temporary files are never read.
///
/// Safe to use from several threads and processes at once.
public final class FeatureCache: Sendable {
    /// The cache's root directory.
    public let directory: URL
    private let onDiscardedEntry: (@Sendable (URL, FeatureCacheError) -> Void)?

    /// The suffix of files being written.
    public static let temporarySuffix = ".tmp"

    /// Opens a cache rooted at `directory`, creating the directory if needed.
    /// - Parameters:
    ///   - directory: the cache's root.
    ///   - onDiscardedEntry: called with the entry's URL and the reason whenever an unreadable
    ///     entry is set aside, so a caller can log it.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the directory cannot
    ///   be created.
    public init(directory: URL, onDiscardedEntry: (@Sendable (URL, FeatureCacheError) -> Void)? = nil) throws {
        self.directory = directory
        self.onDiscardedEntry = onDiscardedEntry
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FeatureCacheError.cannotWrite(
                file: directory.path, operation: "create directory", reason: error.localizedDescription)
        }
    }

    /// The path of `key`'s entry: `<directory>/<first two hex digits>/<key>.h5`.
    public func url(for key: CacheKey) -> URL {
        shard(for: key).appendingPathComponent("\(key.hexDigest).h5")
    }

    private func shard(for key: CacheKey) -> URL {
        directory.appendingPathComponent(String(key.hexDigest.prefix(2)), isDirectory: true)
    }

    /// The entry stored under `key`, or nil if there is none or it cannot be read.
    ///
    /// An entry that exists but fails to read or validate (truncated, garbage, another format
    /// version, a key that does not match its contents) is moved aside and reported, and the
    /// lookup is a miss.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` only if an unreadable
    ///   entry can be neither moved aside nor deleted.
    public func lookup(key: CacheKey) throws -> CacheEntry? {
        try lookup(key: key, read: CacheEntry.init(contentsOf:), key: \.key)
    }

    /// The sequences of the entry stored under `key`, without their keypoints, or nil if there
    /// is none or it cannot be read; an unreadable entry is set aside as in ``lookup(key:)``.
    ///
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` only if an unreadable
    ///   entry can be neither moved aside nor deleted.
    public func lookupIndex(key: CacheKey) throws -> [CachedSequence]? {
        try lookup(key: key, read: CacheEntry.index(contentsOf:), key: \.key)?.sequences
    }

    /// Reads `key`'s entry with `read`, setting an unreadable one (or one for another key) aside.
    private func lookup<Contents>(
        key: CacheKey, read: (URL) throws -> Contents, key storedKey: (Contents) -> CacheKey
    ) throws -> Contents? {
        let url = url(for: key)
        guard let identity = FileIdentity(path: url.path) else { return nil }
        let failure: FeatureCacheError
        do {
            let contents = try read(url)
            if storedKey(contents) == key { return contents }
            failure = .malformedEntry(file: url.path, object: "/@key", reason: "entry is for key \(storedKey(contents))")
        } catch let error as FeatureCacheError {
            failure = error
        }
        try discard(url, identity: identity, reason: failure)
        return nil
    }

    /// Stores `entry` under its key, atomically replacing any entry already there.
    /// - Throws: ``FeatureCacheError/invalidSequence(id:reason:)`` for an inconsistent sequence,
    ///   ``FeatureCacheError/hdf5(_:)`` if writing the file fails,
    ///   ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if creating the folder,
    ///   `fsync` or `rename` fails. The temporary file is removed on failure.
    public func store(_ entry: CacheEntry) throws {
        let shard = shard(for: entry.key)
        do {
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        } catch {
            throw FeatureCacheError.cannotWrite(file: shard.path, operation: "create directory", reason: error.localizedDescription)
        }
        let temporary = shard.appendingPathComponent(
            "\(entry.key.hexDigest).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)\(Self.temporarySuffix)")
        do {
            try AtomicFile.replace(url(for: entry.key), temporary: temporary) { try entry.write(to: $0) }
        } catch let error as AtomicFileError {
            throw FeatureCacheError.cannotWrite(file: error.path, operation: error.operation, reason: error.reason)
        }
    }

    /// Returns the sequences of `source`, from the cache if it holds them, else by calling
    /// `importer` and storing its result.
    ///
    /// The key is the SHA-256 of the source file's bytes combined with `fingerprint` after
    /// ``ImporterFingerprint/adding(layoutName:frameRate:)``: moving or renaming the file keeps
    /// its entry; changing a byte, the importer version or a setting makes a new one.
    /// - Parameters:
    ///   - source: the file to import; it is read once, in chunks, to hash it.
    ///   - fingerprint: the importer and its settings.
    ///   - layoutName: the skeleton layout the importer produces.
    ///   - frameRate: frames per second of the produced sequences.
    ///   - importer: imports `source`; called only on a miss.
    /// - Returns: the sequences, the entry's key, the source's SHA-256, and whether it was a cache hit.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` if `source` cannot be read,
    ///   what `importer` throws, or what ``store(_:)`` throws.
    public func sequences(
        source: URL, fingerprint: ImporterFingerprint, layoutName: String, frameRate: Double,
        importer: () throws -> [LabeledSequence]
    ) throws -> (sequences: [LabeledSequence], key: CacheKey, sourceHash: ContentHash, hit: Bool) {
        let sourceHash = try ContentHash.sha256(ofFileAt: source)
        let result = try entry(
            sourcePath: source.path, sourceHash: sourceHash, fingerprint: fingerprint, layoutName: layoutName,
            frameRate: frameRate
        ) { ImportedContents(sequences: try importer()) }
        return (result.entry.sequences, result.entry.key, sourceHash, result.hit)
    }

    /// Returns the entry of a source whose content hash is already known, from the cache if it
    /// holds it, else by calling `importer` and storing what it returns.
    ///
    /// The variant of ``sequences(source:fingerprint:layoutName:frameRate:importer:)`` for sources
    /// that are not one file (a folder of per-frame JSON files, hashed by
    /// ``ContentHash/sha256(ofFolderAt:fileExtension:)``) and for importers that record metadata
    /// or person counts (video extraction).
    /// - Parameters:
    ///   - sourcePath: the source's path, recorded in the entry (informational only).
    ///   - sourceHash: the hash of the source's content.
    ///   - fingerprint: the importer and its settings; `layoutName` and `frameRate` are added.
    ///   - layoutName: the skeleton layout the importer produces.
    ///   - frameRate: frames per second of the produced sequences.
    ///   - importer: imports the source; called only on a miss.
    /// - Returns: the entry and whether it was a cache hit.
    /// - Throws: what `importer` throws, or what ``store(_:)`` throws.
    public func entry(
        sourcePath: String, sourceHash: ContentHash, fingerprint: ImporterFingerprint, layoutName: String, frameRate: Double,
        importer: () throws -> ImportedContents
    ) throws -> (entry: CacheEntry, hit: Bool) {
        let fullFingerprint = fingerprint.adding(layoutName: layoutName, frameRate: frameRate)
        let key = try CacheKey(source: sourceHash, fingerprint: fullFingerprint)
        if let entry = try lookup(key: key) {
            return (entry, true)
        }
        let contents = try importer()
        var entry = try CacheEntry(
            sourcePath: sourcePath, sourceHash: sourceHash, fingerprint: fullFingerprint, layoutName: layoutName,
            frameRate: frameRate, sequences: contents.sequences)
        entry.metadata = contents.metadata
        entry.personCounts = contents.personCounts
        try store(entry)
        return (entry, false)
    }

    /// Returns a description of each sequence of `source` without its keypoints, from the cache
    /// if it holds them, else by calling `importer`, storing its result and indexing the new entry.
    ///
    /// The streaming counterpart of ``sequences(source:fingerprint:layoutName:frameRate:importer:)``,
    /// with the same key: only one source file's sequences are in memory at a time (while it is
    /// imported), and ``CachedSequence/read()`` loads a sequence when it is needed.
    /// - Parameters:
    ///   - source: the file to import; it is read once, in chunks, to hash it.
    ///   - fingerprint: the importer and its settings.
    ///   - layoutName: the skeleton layout the importer produces.
    ///   - frameRate: frames per second of the produced sequences.
    ///   - importer: imports `source`; called only on a miss.
    /// - Returns: the sequences, the entry's key, the source's SHA-256, and whether it was a cache hit.
    /// - Throws: what ``sequences(source:fingerprint:layoutName:frameRate:importer:)`` throws, and
    ///   ``FeatureCacheError`` if the stored entry cannot be indexed.
    public func sequenceIndex(
        source: URL, fingerprint: ImporterFingerprint, layoutName: String, frameRate: Double,
        importer: () throws -> [LabeledSequence]
    ) throws -> (sequences: [CachedSequence], key: CacheKey, sourceHash: ContentHash, hit: Bool) {
        let sourceHash = try ContentHash.sha256(ofFileAt: source)
        let fullFingerprint = fingerprint.adding(layoutName: layoutName, frameRate: frameRate)
        let key = try CacheKey(source: sourceHash, fingerprint: fullFingerprint)
        if let sequences = try lookupIndex(key: key) {
            return (sequences, key, sourceHash, true)
        }
        _ = try entry(
            sourcePath: source.path, sourceHash: sourceHash, fingerprint: fingerprint, layoutName: layoutName,
            frameRate: frameRate
        ) { ImportedContents(sequences: try importer()) }
        return (try CacheEntry.index(contentsOf: url(for: key)).sequences, key, sourceHash, false)
    }

    /// Deletes temporary files left by writers that died, if last modified more than `age`
    /// seconds before `now`.
    ///
    /// Keep `age` well above the time one store takes, or a live writer's file may go; its
    /// `rename` then fails and that store throws, but no entry is ever corrupted.
    /// - Returns: the files removed.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the cache directory
    ///   cannot be listed.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan age: TimeInterval = 24 * 3_600, now: Date = Date()) throws -> [URL] {
        try removeTemporaryFiles { file in
            guard let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate else { return false }
            return now.timeIntervalSince(modified) > age
        }
    }

    /// Removes temporary files whose writer process no longer exists, whatever their age: the
    /// leftovers of imports that were killed. A temporary file is named
    /// `<key>.<pid>.<UUID>.tmp`; its writer is gone when ``ProcessLiveness/hasEnded(_:)`` says so.
    /// Files of live writers (this or another process) are kept.
    /// - Returns: the files removed.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the cache directory
    ///   cannot be listed.
    @discardableResult
    public func removeAbandonedTemporaryFiles() throws -> [URL] {
        try removeTemporaryFiles { file in
            let parts = file.lastPathComponent.split(separator: ".")
            guard parts.count >= 4, let pid = pid_t(parts[parts.count - 3]), pid > 0 else { return false }
            return ProcessLiveness.hasEnded(pid)
        }
    }

    /// Removes the temporary files in every shard for which `shouldRemove` is true.
    private func removeTemporaryFiles(where shouldRemove: (URL) -> Bool) throws -> [URL] {
        let manager = FileManager.default
        let shards: [URL]
        do {
            shards = try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw FeatureCacheError.cannotWrite(file: directory.path, operation: "list", reason: error.localizedDescription)
        }
        var removed: [URL] = []
        for shard in shards {
            let files = (try? manager.contentsOfDirectory(at: shard, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
            for file in files where file.lastPathComponent.hasSuffix(Self.temporarySuffix) && shouldRemove(file) {
                if (try? manager.removeItem(at: file)) != nil { removed.append(file) }
            }
        }
        return removed
    }

    /// Moves an unreadable entry aside (or deletes it) unless another writer replaced it since
    /// it was read, and reports it.
    private func discard(_ url: URL, identity: FileIdentity, reason: FeatureCacheError) throws {
        onDiscardedEntry?(url, reason)
        // A concurrent store may have renamed a good entry into place after the failed read.
        guard FileIdentity(path: url.path) == identity else { return }
        let aside = url.path + ".corrupt-\(UUID().uuidString)"
        if rename(url.path, aside) == 0 { return }
        if unlink(url.path) == 0 || errno == ENOENT { return }
        throw FeatureCacheError.cannotWrite(file: url.path, operation: "discard unreadable entry", reason: String(cString: strerror(errno)))
    }
}
