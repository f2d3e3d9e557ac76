import Foundation

/// Reads a whole file with plain system calls (`open`, `read` until end of file, `fstat`,
/// `close`): no `stat` of the path and no `URL`, for sources of many small files.
enum WholeFile {
    /// The bytes of the file at `path`, and its identity once read (`fstat` of the open file).
    /// - Parameters:
    ///   - path: An absolute path.
    ///   - expectedSize: Bytes to allocate at first (the size `stat` gave); the file may be longer.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` with the system's reason if
    ///   the file cannot be opened or read.
    static func read(atPath path: String, expectedSize: Int) throws -> (bytes: Data, identity: FileIdentity?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FeatureCacheError.cannotReadSource(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes = Data(count: max(expectedSize, 0) + 1)
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
        return (bytes, FileIdentity(descriptor: descriptor))
    }
}
