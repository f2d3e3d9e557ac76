import AtomicFiles
import ContentHashing
import Foundation
import HDF5
import Pose
import Synchronization

/// A content-addressed, crash-safe store of imported pose sequences, one HDF5 file per entry.
///
/// An entry lives at `<directory>/<key[0..<2]>/<key>.h5` (layout: ``CacheEntry``). Entries are
/// written to a unique temporary file in the same folder (`<key>.<pid>.<UUID>.tmp`), flushed
/// with `fsync(2)` (or, for a batch, once at its end: ``withDeferredSync(_:)``) and renamed into
/// place with `rename(2)`, which is atomic: a reader sees the
/// old entry, the new one or none, never half a file, even if the writer is killed. Processes
/// that store the same key at once each rename a complete file; the last one wins, and since the
/// key fixes the content, every winner is right.
///
/// Every entry starts with a checksum header (SHA-256 of the rest of the file, see
/// ``CacheEntry``), verified before HDF5 parses the file. A file at an entry's path that fails
/// the checksum, cannot be read or fails validation (a wrong shape, a value that is not finite)
/// is a miss: it is renamed aside to `<key>.h5.corrupt-<UUID>` for inspection, reported once to
/// the `onDiscardedEntry` handler (``DiscardedEntry``), and the source is imported again. An
/// entry without a checksum header (written by an earlier ActionLab) is imported again and
/// replaced rather than trusted: stamping it would vouch for bytes nobody checked, and parsing
/// it is what a damaged file can crash libhdf5 with. Temporary files are never read.
///
/// Safe to use from several threads and processes at once.
public final class FeatureCache: Sendable {
    /// The cache's root directory.
    public let directory: URL
    /// The content hashes of source files by identity, kept in the cache folder
    /// (``FileIdentityIndex/fileName``): an unchanged source is not read again to find its key.
    /// Its records are written by ``FileIdentityIndex/save()``, which the caller runs after a batch
    /// of imports.
    public let identities: FileIdentityIndex
    private let onDiscardedEntry: (@Sendable (DiscardedEntry) -> Void)?
    /// How many ``withDeferredSync(_:)`` calls are running: while any is, ``store(_:)`` skips
    /// its `fsync` calls.
    private let deferringCalls = Mutex(0)

    /// The suffix of files being written.
    public static let temporarySuffix = ".tmp"

    /// Opens a cache rooted at `directory`, creating the directory if needed.
    /// - Parameters:
    ///   - directory: the cache's root.
    ///   - onDiscardedEntry: called once for each entry that could not be used, after it was
    ///     moved aside (or left for the import to replace), with what was done, so a caller can
    ///     log it (its `description` is one line).
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the directory cannot
    ///   be created.
    public init(directory: URL, onDiscardedEntry: (@Sendable (DiscardedEntry) -> Void)? = nil) throws {
        self.directory = directory
        self.onDiscardedEntry = onDiscardedEntry
        identities = FileIdentityIndex(directory: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FeatureCacheError.cannotWrite(
                file: directory.path, operation: "create directory", reason: FileErrorReason.of(error))
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
    /// An entry that exists but fails its checksum, to read or to validate (truncated, garbage,
    /// a flipped byte, another format version, a key that does not match its contents, a value
    /// that is not finite) is moved aside and reported, and the lookup is a miss.
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - source: The source file the entry is looked up for, named in the report; optional.
    /// - Throws: ``FeatureCacheError/cannotSetAside(file:source:damage:reason:)`` only if an
    ///   unusable entry can be neither moved aside nor deleted (a read-only cache).
    public func lookup(key: CacheKey, source: String? = nil) throws -> CacheEntry? {
        try lookup(key: key, source: source, read: CacheEntry.init(contentsOf:), key: \.key)
    }

    /// The sequences of the entry stored under `key`, without their keypoints, or nil if there
    /// is none or it cannot be used; an unusable entry is moved aside as in ``lookup(key:source:)``.
    ///
    /// - Throws: ``FeatureCacheError/cannotSetAside(file:source:damage:reason:)`` only if an
    ///   unusable entry can be neither moved aside nor deleted.
    public func lookupIndex(key: CacheKey, source: String? = nil) throws -> [CachedSequence]? {
        try lookupIndexAndMetadata(key: key, source: source)?.sequences
    }

    /// ``lookupIndex(key:source:)`` with the entry's ``CacheEntry/metadata``.
    private func lookupIndexAndMetadata(key: CacheKey, source: String?) throws -> (sequences: [CachedSequence], metadata: [String: String])? {
        try lookup(key: key, source: source, read: CacheEntry.index(contentsOf:), key: \.key).map { ($0.sequences, $0.metadata) }
    }

    /// Reads `key`'s entry with `read`, setting an unusable one (or one for another key) aside.
    private func lookup<Contents>(
        key: CacheKey, source: String?, read: (URL) throws -> Contents, key storedKey: (Contents) -> CacheKey
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
        try discard(url, identity: identity, source: source, reason: failure)
        return nil
    }

    /// Stores `entry` under its key, atomically replacing any entry already there.
    /// The file is built in memory (``CacheEntry/fileContents()``) and written with plain
    /// `write(2)` calls, so a full disk is one `cannotWrite` error and HDF5 never holds a file
    /// it failed to flush.
    /// - Throws: ``FeatureCacheError/invalidSequence(id:reason:)`` for an inconsistent sequence,
    ///   ``FeatureCacheError/hdf5(_:)`` if HDF5 fails to build the file,
    ///   ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if creating the folder,
    ///   writing (`No space left on device`), `fsync` or `rename` fails. The temporary file is
    ///   removed on failure.
    public func store(_ entry: CacheEntry) throws {
        let shard = shard(for: entry.key)  // created by the write if missing
        let writer = "\(ProcessInfo.processInfo.processIdentifier)@\(ProcessLiveness.hostTag)"
        let temporary = shard.appendingPathComponent("\(entry.key.hexDigest).\(writer).\(UUID().uuidString)\(Self.temporarySuffix)")
        let syncing = deferringCalls.withLock { $0 == 0 }
        try CacheEntry.writeAtomically(try entry.fileContents(), to: url(for: entry.key), temporary: temporary, syncing: syncing)
    }

    /// Runs `body`, in which ``store(_:)`` (on any thread) skips its two `fsync(2)` calls per
    /// entry, then flushes the cache's file system once with `syncfs(2)`.
    ///
    /// For a batch of imports: each entry is still written to a temporary file and renamed into
    /// place, so no reader ever sees part of one, and everything is on disk when this returns.
    /// A power cut inside `body` may leave a renamed entry with fewer bytes than were written;
    /// its checksum header then fails, the next lookup moves it aside and the source is imported
    /// again, so nothing wrong is ever read. On ext4 each `fsync` waits for a journal commit:
    /// 402 of them took 0.24 s of a 13,531-file import's 1.09 s (`scripts/bench-import`).
    /// - Parameter body: The imports.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (then nothing is flushed), or
    ///   ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if `syncfs` fails.
    public func withDeferredSync<R>(_ body: () throws -> R) throws -> R {
        deferringCalls.withLock { $0 += 1 }
        let result: R
        do {
            defer { deferringCalls.withLock { $0 -= 1 } }
            result = try body()
        }
        do {
            try AtomicFile.syncFileSystem(containing: directory)
        } catch let error as AtomicFileError {
            throw FeatureCacheError.cannotWrite(file: error.path, operation: error.operation, reason: error.reason)
        }
        return result
    }

    /// Returns the sequences of `source`, from the cache if it holds them, else by calling
    /// `importer` and storing its result.
    ///
    /// The key is the SHA-256 of the source file's bytes combined with `fingerprint` after
    /// ``ImporterFingerprint/adding(layoutName:frameRate:)``: moving or renaming the file keeps
    /// its entry; changing a byte, the importer version or a setting makes a new one.
    /// - Parameters:
    ///   - source: the file to import; read once, in chunks, to hash it, unless ``identities``
    ///     knows it unchanged.
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
        let sourceHash = try identities.contentHash(ofFileAt: source)
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
        if let entry = try lookup(key: key, source: sourcePath) {
            return (entry, true)
        }
        return (try importAndStore(sourcePath: sourcePath, sourceHash: sourceHash, fingerprint: fullFingerprint,
            layoutName: layoutName, frameRate: frameRate, importer: importer), false)
    }

    /// Calls `importer` and stores what it returns under the key of `sourceHash` and
    /// `fullFingerprint` (which already holds the layout and frame rate).
    private func importAndStore(
        sourcePath: String, sourceHash: ContentHash, fingerprint fullFingerprint: ImporterFingerprint, layoutName: String,
        frameRate: Double, importer: () throws -> ImportedContents
    ) throws -> CacheEntry {
        let contents = try importer()
        var entry = try CacheEntry(
            sourcePath: sourcePath, sourceHash: sourceHash, fingerprint: fullFingerprint, layoutName: layoutName,
            frameRate: frameRate, sequences: contents.sequences)
        entry.metadata = contents.metadata
        entry.personCounts = contents.personCounts
        try store(entry)
        return entry
    }

    /// Returns a description of each sequence of `source` without its keypoints, from the cache
    /// if it holds them, else by calling `importer`, storing its result and indexing the new entry.
    ///
    /// The streaming counterpart of ``sequences(source:fingerprint:layoutName:frameRate:importer:)``,
    /// with the same key: only one source file's sequences are in memory at a time (while it is
    /// imported), and ``CachedSequence/read()`` loads a sequence when it is needed.
    /// - Parameters:
    ///   - source: the file to import; read once, in chunks, to hash it, unless ``identities``
    ///     knows it unchanged.
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
        let result = try contentsIndex(source: source, fingerprint: fingerprint, layoutName: layoutName, frameRate: frameRate) {
            ImportedContents(sequences: try importer())
        }
        return (result.sequences, result.key, result.sourceHash, result.hit)
    }

    /// ``sequenceIndex(source:fingerprint:layoutName:frameRate:importer:)`` for an importer that
    /// also records facts about the source (``ImportedContents/metadata``), which are returned
    /// with the index, from the stored entry on a hit.
    /// - Throws: What ``sequenceIndex(source:fingerprint:layoutName:frameRate:importer:)`` throws.
    public func contentsIndex(
        source: URL, fingerprint: ImporterFingerprint, layoutName: String, frameRate: Double,
        importer: () throws -> ImportedContents
    ) throws -> (sequences: [CachedSequence], metadata: [String: String], key: CacheKey, sourceHash: ContentHash, hit: Bool) {
        let sourceHash = try identities.contentHash(ofFileAt: source)
        let fullFingerprint = fingerprint.adding(layoutName: layoutName, frameRate: frameRate)
        let key = try CacheKey(source: sourceHash, fingerprint: fullFingerprint)
        if let index = try lookupIndexAndMetadata(key: key, source: source.path) {
            return (index.sequences, index.metadata, key, sourceHash, true)
        }
        // Not through `entry(...)`: a second lookup would report an unusable entry twice.
        _ = try importAndStore(
            sourcePath: source.path, sourceHash: sourceHash, fingerprint: fullFingerprint, layoutName: layoutName,
            frameRate: frameRate, importer: importer)
        let index = try CacheEntry.index(contentsOf: url(for: key))
        return (index.sequences, index.metadata, key, sourceHash, false)
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
    /// leftovers of imports and extractions that were killed. A temporary file is named
    /// `<key>.<pid>@<host>.<UUID>.tmp` (``ProcessLiveness/hostTag``; `<key>.<pid>.<UUID>.tmp`
    /// before); the writer of a file of this machine is gone when ``ProcessLiveness/hasEnded(_:)``
    /// says so. A pid of another machine (a cache shared by cluster nodes) cannot be asked about,
    /// so its files are removed only once they are older than `otherMachinesAfter`. Files of live
    /// writers (this or another process) are kept.
    /// - Parameters:
    ///   - otherMachinesAfter: Seconds after its last modification a temporary file written on
    ///     another machine counts as abandoned; no cache entry takes that long to write.
    ///   - now: The current time.
    /// - Returns: the files removed.
    /// - Throws: ``FeatureCacheError/cannotWrite(file:operation:reason:)`` if the cache directory
    ///   cannot be listed.
    @discardableResult
    public func removeAbandonedTemporaryFiles(otherMachinesAfter age: TimeInterval = 3_600, now: Date = Date()) throws -> [URL] {
        try removeTemporaryFiles { file in
            let parts = file.lastPathComponent.split(separator: ".")
            guard parts.count >= 4 else { return false }
            let writer = parts[parts.count - 3].split(separator: "@", maxSplits: 1)
            guard let first = writer.first, let pid = pid_t(first), pid > 0 else { return false }
            if writer.count == 2, writer[1] != ProcessLiveness.hostTag {
                guard let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
                else { return false }
                return now.timeIntervalSince(modified) > age
            }
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
            throw FeatureCacheError.cannotWrite(file: directory.path, operation: "list", reason: FileErrorReason.of(error))
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

    /// Moves an unusable entry aside (or deletes it) unless another writer replaced it since it
    /// was read, then reports what was done; an entry without a checksum is left for the import
    /// to replace.
    /// - Throws: ``FeatureCacheError/cannotSetAside(file:source:damage:reason:)`` if it can be
    ///   neither renamed nor deleted; nothing is reported then, since nothing was done.
    private func discard(_ url: URL, identity: FileIdentity, source: String?, reason: FeatureCacheError) throws {
        func report(_ disposition: DiscardedEntry.Disposition) {
            onDiscardedEntry?(DiscardedEntry(entry: url, source: source, reason: reason, disposition: disposition))
        }
        if case .unverifiedEntry = reason { return report(.replacedOnImport) }
        // A concurrent store may have renamed a good entry into place after the failed read.
        guard FileIdentity(path: url.path) == identity else { return report(.replacedByAnotherWriter) }
        let aside = URL(fileURLWithPath: url.path + ".corrupt-\(UUID().uuidString)")
        if rename(url.path, aside.path) == 0 { return report(.movedAside(to: aside)) }
        let renameError = String(cString: strerror(errno))
        if unlink(url.path) == 0 { return report(.deleted) }
        if errno == ENOENT { return report(.replacedByAnotherWriter) }
        let damage: String = switch reason {
        case let .damagedEntry(_, why): "damaged: \(why)"
        default: "\(reason)"
        }
        throw FeatureCacheError.cannotSetAside(file: url.path, source: source, damage: damage, reason: renameError)
    }
}
