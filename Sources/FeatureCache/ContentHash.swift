import AtomicFiles
import Foundation

/// A SHA-256 digest identifying content: of bytes, of text, or of a file's bytes.
///
/// Computed with OpenSSL's EVP interface (FIPS 180-4 SHA-256). Rendered as 64 lowercase
/// hexadecimal digits, the same text `sha256sum` prints.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The digest as 64 lowercase hexadecimal digits.
    public let hexDigest: String

    init<Bytes: Sequence>(digest: Bytes) where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        hexDigest = String(decoding: text, as: UTF8.self)
    }

    /// Adopts a digest read back from storage.
    /// - Throws: ``FeatureCacheError/invalidKey(_:)`` unless `hexDigest` is 64 lowercase hex digits.
    public init(hexDigest: String) throws {
        guard Self.isHexDigest(hexDigest) else { throw FeatureCacheError.invalidKey(hexDigest) }
        self.hexDigest = hexDigest
    }

    public var description: String { hexDigest }

    /// The 32 bytes of the digest (from ``hexDigest``, which the initializers keep valid).
    var digestBytes: [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        let digits = Array(hexDigest.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// SHA-256 of `data`.
    /// - Throws: ``FeatureCacheError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(of data: Data) throws -> ContentHash {
        let hasher = try SHA256Hasher()
        try data.withUnsafeBytes { try hasher.update($0) }
        return try hasher.finalize()
    }

    /// SHA-256 of `string`'s UTF-8 bytes (no terminator, no normalization).
    /// - Throws: ``FeatureCacheError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(of string: String) throws -> ContentHash {
        let hasher = try SHA256Hasher()
        var utf8 = string
        try utf8.withUTF8 { try hasher.update(UnsafeRawBufferPointer($0)) }
        return try hasher.finalize()
    }

    /// SHA-256 of a file's bytes, read in chunks so memory use stays at `chunkSize` whatever
    /// the file's size.
    /// - Parameters:
    ///   - url: a file URL.
    ///   - chunkSize: bytes read at a time; 1 MiB by default.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` if the file cannot be opened
    ///   or read, ``FeatureCacheError/cryptoFailure(function:)`` if OpenSSL fails.
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

    /// Whether `text` is 64 lowercase hexadecimal digits.
    static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
