import Foundation

/// Small POSIX helpers for durable writes.
enum FileSync {
    /// Flushes a file's (or a directory's) data to disk with `fsync(2)`.
    static func fsync(path: String, directory: Bool) throws {
        let descriptor = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY)
        guard descriptor >= 0 else {
            throw FeatureCacheError.cannotWrite(file: path, operation: "open for fsync", reason: lastErrorText())
        }
        defer { close(descriptor) }
        guard Foundation.fsync(descriptor) == 0 else {
            throw FeatureCacheError.cannotWrite(file: path, operation: "fsync", reason: lastErrorText())
        }
    }

    /// The text of the current `errno`.
    static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}

/// Which file a path named at one moment: device, inode, size and modification time.
struct FileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: Int

    /// The identity of the file at `path`, or nil if there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec)
    }
}
