import Foundation

/// A SHA-256 digest identifying content: of bytes, of text, or of a file's bytes.
///
/// Computed with OpenSSL's EVP interface (FIPS 180-4 SHA-256). Rendered as 64 lowercase
/// hexadecimal digits, the same text `sha256sum` prints.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The digest as 64 lowercase hexadecimal digits.
    public let hexDigest: String

    package init<Bytes: Sequence>(digest: Bytes) where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        hexDigest = String(decoding: text, as: UTF8.self)
    }

    /// Adopts a digest read back from storage.
    /// - Throws: ``ContentHashError/notAHexDigest(_:)`` unless `hexDigest` is 64 lowercase hex digits.
    public init(hexDigest: String) throws {
        guard Self.isHexDigest(hexDigest) else { throw ContentHashError.notAHexDigest(hexDigest) }
        self.hexDigest = hexDigest
    }

    public var description: String { hexDigest }

    /// The 32 bytes of the digest (from ``hexDigest``, which the initializers keep valid).
    package var digestBytes: [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        let digits = Array(hexDigest.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// SHA-256 of `data`.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(of data: Data) throws -> ContentHash {
        let hasher = try SHA256Hasher()
        try data.withUnsafeBytes { try hasher.update($0) }
        return try hasher.finalize()
    }

    /// SHA-256 of `string`'s UTF-8 bytes (no terminator, no normalization).
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(of string: String) throws -> ContentHash {
        let hasher = try SHA256Hasher()
        var utf8 = string
        try utf8.withUTF8 { try hasher.update(UnsafeRawBufferPointer($0)) }
        return try hasher.finalize()
    }

    /// SHA-256 of a list of text fields: each field's UTF-8 bytes followed by a NUL byte, in
    /// order. The digest of records whose fields are free text (a NUL cannot occur in them, so
    /// no two lists give the same bytes): `weights.h5`'s `metadata_sha256` (keys and values
    /// alternating) and `ensemble.json`'s `digest`.
    ///
    /// In Python: `hashlib.sha256(b"".join(f.encode() + b"\0" for f in fields)).hexdigest()`.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256<Fields: Sequence>(ofFields fields: Fields) throws -> ContentHash where Fields.Element == String {
        let hasher = try SHA256Hasher()
        for field in fields {
            var utf8 = field
            try utf8.withUTF8 { try hasher.update(UnsafeRawBufferPointer($0)) }
            try withUnsafeBytes(of: UInt8(0)) { try hasher.update($0) }
        }
        return try hasher.finalize()
    }

    /// Whether `text` is 64 lowercase hexadecimal digits.
    package static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
