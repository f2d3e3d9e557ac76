import ContentHashing
/// The name of a cache entry: SHA-256 of the source's content hash and the importer fingerprint.
///
/// `key = sha256(sourceHash.hexDigest + "\n" + fingerprint)`, in lowercase hex, where
/// `fingerprint` is ``ImporterFingerprint/canonicalString``. The same bytes imported the same
/// way always give the same key, wherever the file lives.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as 64 lowercase hexadecimal digits.
    public let hexDigest: String

    /// The key of `source` content imported as `fingerprint` describes (its canonical string).
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public init(source: ContentHash, fingerprint: String) throws {
        hexDigest = try ContentHash.sha256(of: source.hexDigest + "\n" + fingerprint).hexDigest
    }

    /// The key of `source` content imported as `fingerprint` describes.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public init(source: ContentHash, fingerprint: ImporterFingerprint) throws {
        try self.init(source: source, fingerprint: fingerprint.canonicalString)
    }

    /// Adopts a key written as text (from a file name or an attribute).
    /// - Throws: ``FeatureCacheError/invalidKey(_:)`` unless it is 64 lowercase hex digits; this
    ///   also keeps a key from naming a path outside the cache directory.
    public init(hexDigest: String) throws {
        guard ContentHash.isHexDigest(hexDigest) else { throw FeatureCacheError.invalidKey(hexDigest) }
        self.hexDigest = hexDigest
    }

    public var description: String { hexDigest }
}
