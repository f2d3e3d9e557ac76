import Foundation

/// A SHA-256 digest identifying content: of bytes, of text, or of a file's bytes.
///
/// Computed with OpenSSL's EVP interface (FIPS 180-4 SHA-256). Rendered as 64 lowercase
/// hexadecimal digits, the same text `sha256sum` prints.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    // The 32 bytes as four big-endian words, inline: a hash allocates nothing, and the
    // file-identity index keeps one per source file. (Concrete code only: a generic or a tuple
    // here is resolved at run time in the callers' modules, which costs more than the hash.)
    private var words: SIMD4<UInt64>

    /// The first 32 bytes of `digest` (a SHA-256 digest has exactly 32; missing bytes are zero).
    package init(digest: ArraySlice<UInt8>) {
        words = .zero
        for offset in 0..<min(32, digest.count) {
            words[offset / 8] |= UInt64(digest[digest.startIndex + offset]) << (56 - 8 * UInt64(offset % 8))
        }
    }

    /// The first 32 bytes of `digest`.
    package init(digest: [UInt8]) {
        self.init(digest: digest[...])
    }

    /// Adopts a digest read back from storage.
    /// - Throws: ``ContentHashError/notAHexDigest(_:)`` unless `hexDigest` is 64 lowercase hex digits.
    public init(hexDigest: String) throws {
        guard Self.isHexDigest(hexDigest) else { throw ContentHashError.notAHexDigest(hexDigest) }
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        let digits = Array(hexDigest.utf8)
        self.init(digest: (0..<32).map { value(digits[2 * $0]) << 4 | value(digits[2 * $0 + 1]) })
    }

    /// Byte `index` (0 to 31) of the digest.
    private func byte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: words[index / 8] >> (56 - 8 * UInt64(index % 8)))
    }

    /// The digest as 64 lowercase hexadecimal digits (what `sha256sum` prints).
    public var hexDigest: String {
        String(unsafeUninitializedCapacity: 64) { text in
            for index in 0..<32 {
                let value = byte(index)
                let high = value >> 4, low = value & 0x0f
                text[2 * index] = high < 10 ? 48 + high : 87 + high
                text[2 * index + 1] = low < 10 ? 48 + low : 87 + low
            }
            return 64
        }
    }

    public var description: String { hexDigest }

    /// The 32 bytes of the digest.
    package var digestBytes: [UInt8] { (0..<32).map(byte) }

    /// Appends the 32 bytes of the digest to `bytes`.
    package func appendDigest(to bytes: inout [UInt8]) {
        for index in 0..<32 { bytes.append(byte(index)) }
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
