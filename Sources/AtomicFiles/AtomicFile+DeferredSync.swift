import Foundation

extension AtomicFile {
    /// Whether atomic writes on this task leave flushing to an enclosing
    /// ``withDeferredSync(flushing:_:)``.
    @TaskLocal static var syncIsDeferred = false

    /// Runs `body`, whose atomic writes skip their own `fsync(2)` calls, then flushes the file
    /// system that holds `folder` once with `syncfs(2)`.
    ///
    /// For a folder that no reader sees until it is complete, such as a trial's private partial
    /// folder renamed into place after its last file: each write is still atomic (temporary file,
    /// `rename(2)`), and everything is on disk before the caller's rename makes the folder
    /// visible, at the cost of one flush instead of two per file (on ext4 each `fsync` waits for
    /// a journal commit). Files written by other tasks are unaffected.
    ///
    /// - Parameters:
    ///   - folder: A folder on the file system to flush (the one the writes go to).
    ///   - body: The writes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (nothing is flushed then), or ``AtomicFileError`` if the
    ///   folder cannot be opened or `syncfs` fails.
    public static func withDeferredSync<R>(flushing folder: URL, _ body: () throws -> R) throws -> R {
        let result = try $syncIsDeferred.withValue(true, operation: body)
        try syncFileSystem(containing: folder)
        return result
    }

    /// Flushes the file system that holds `folder` with `syncfs(2)` (or `sync(2)` where the C
    /// library lacks it): every file written there, by any writer, is on disk when it returns.
    /// - Parameter folder: A folder on the file system to flush.
    /// - Throws: ``AtomicFileError`` if the folder cannot be opened or `syncfs` fails.
    public static func syncFileSystem(containing folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw AtomicFileError(path: folder.path, operation: "open for syncfs", reason: lastErrorText())
        }
        defer { close(descriptor) }
        guard let syncFileSystem = Self.syncfs else {
            Glibc.sync()  // every file system: slower, as durable
            return
        }
        guard syncFileSystem(descriptor) == 0 else {
            throw AtomicFileError(path: folder.path, operation: "syncfs", reason: lastErrorText())
        }
    }

    /// glibc's `syncfs(2)` wrapper, looked up at run time: Swift's Glibc module leaves out the
    /// functions that need `_GNU_SOURCE`. Nil where the C library lacks it.
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
}
