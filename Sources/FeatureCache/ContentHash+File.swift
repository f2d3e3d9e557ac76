import AtomicFiles
import ContentHashing
import Foundation

extension ContentHash {
    /// SHA-256 of a file's bytes, read in chunks so memory use stays at `chunkSize` whatever
    /// the file's size.
    /// - Parameters:
    ///   - url: a file URL.
    ///   - chunkSize: bytes read at a time; 1 MiB by default.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` if the file cannot be opened
    ///   or read, ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(ofFileAt url: URL, chunkSize: Int = 1 << 20) throws -> ContentHash {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw FeatureCacheError.cannotReadSource(path: url.path, reason: FileErrorReason.of(error))
        }
        defer { try? handle.close() }
        let hasher = try SHA256Hasher()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: max(1, chunkSize))
            } catch {
                throw FeatureCacheError.cannotReadSource(path: url.path, reason: FileErrorReason.of(error))
            }
            guard let chunk, !chunk.isEmpty else { break }
            try chunk.withUnsafeBytes { try hasher.update($0) }
        }
        return try hasher.finalize()
    }
}
