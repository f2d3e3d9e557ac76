import Foundation

/// Reads a whole file with plain system calls (`open`, `fstat`, `read` until end of file, `fstat`,
/// `close`): no `stat` of the path and no `URL`, for sources of many small files.
enum WholeFile {
    /// A file read whole, with its identity before and after the read (`fstat` of the open file);
    /// the two differ if the file changed while it was read.
    struct Contents {
        var bytes: Data
        var before: FileIdentity
        var after: FileIdentity?
    }

    /// The bytes of the file at `path`, or nil (and nothing read) if it is larger than `largest`
    /// bytes when opened or `fstat` cannot say how large it is.
    /// - Parameters:
    ///   - path: An absolute path.
    ///   - entry: The same file as an open folder and a name in it, opened with `openat(2)`,
    ///     which looks up one path component instead of every one of `path`'s; nil opens `path`.
    ///   - largest: The largest file to read whole, in bytes.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` with the system's reason if
    ///   the file cannot be opened or read.
    static func read(atPath path: String, entry: FolderEntry? = nil, largest: Int64) throws -> Contents? {
        let descriptor = entry.map { openat($0.folder, $0.name, O_RDONLY | O_CLOEXEC) } ?? open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FeatureCacheError.cannotReadSource(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard let before = FileIdentity(descriptor: descriptor), before.size <= largest else { return nil }
        let size = before.size
        // One byte more than the size, so that a file of the expected size ends at the second read.
        var bytes = Data(count: Int(max(size, 0)) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.count *= 2 }
            let read = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(descriptor, base + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw FeatureCacheError.cannotReadSource(path: path, reason: String(cString: strerror(errno)))
            }
            if read == 0 { break }
            count += read
        }
        bytes.count = count
        return Contents(bytes: bytes, before: before, after: FileIdentity(descriptor: descriptor))
    }
}

/// A file as a name in a folder open for the duration of a call (`open(2)` with `O_DIRECTORY`).
struct FolderEntry {
    /// The folder's descriptor.
    var folder: Int32
    /// The file's name in it.
    var name: String
}
