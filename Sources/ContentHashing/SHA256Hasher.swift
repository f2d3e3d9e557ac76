internal import CCrypto

/// An incremental SHA-256 computation: the owner of one OpenSSL `EVP_MD_CTX`.
///
/// Not thread-safe; each hash uses its own hasher.
package final class SHA256Hasher {
    private let context: OpaquePointer

    /// Creates a context initialized for SHA-256 (`EVP_sha256`).
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    package init() throws {
        guard let context = EVP_MD_CTX_new() else { throw ContentHashError.cryptoFailure(function: "EVP_MD_CTX_new") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw ContentHashError.cryptoFailure(function: "EVP_DigestInit_ex")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    package func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else {
            throw ContentHashError.cryptoFailure(function: "EVP_DigestUpdate")
        }
    }

    /// Finishes the digest; the hasher must not be used afterwards.
    /// - Throws: ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    package func finalize() throws -> ContentHash {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw ContentHashError.cryptoFailure(function: "EVP_DigestFinal_ex")
        }
        return ContentHash(digest: digest.prefix(Int(length)))
    }
}
