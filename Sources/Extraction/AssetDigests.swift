import ContentHashing
import FeatureCache
import Foundation

/// SHA-256 digests of large files that fingerprint an extractor (libmediapipe.so, the model
/// bundle), computed once per process per file.
///
/// A file is re-hashed when its size or modification time changes. Thread-safe.
enum AssetDigests {
    private struct Identity: Hashable {
        var path: String
        var size: Int
        var modified: Double
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var digests: [Identity: String] = [:]  // guarded by `lock`

    /// The SHA-256 of the file at `path`, lowercase hex.
    /// - Throws: ``FeatureCacheError`` if the file cannot be read.
    static func sha256(ofFileAt path: String) throws -> String {
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        let identity = Identity(
            path: path, size: (attributes[.size] as? NSNumber)?.intValue ?? -1,
            modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        lock.lock()
        let known = digests[identity]
        lock.unlock()
        if let known { return known }
        let digest = try ContentHash.sha256(ofFileAt: URL(fileURLWithPath: path)).hexDigest
        lock.lock()
        digests[identity] = digest
        lock.unlock()
        return digest
    }
}
