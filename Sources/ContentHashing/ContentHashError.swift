/// Why a content hash could not be made or read back.
public enum ContentHashError: Error, Equatable, CustomStringConvertible {
    /// An OpenSSL call failed (it does only without memory or with a broken OpenSSL).
    case cryptoFailure(function: String)
    /// Text read back as a digest is not 64 lowercase hexadecimal digits.
    case notAHexDigest(String)

    public var description: String {
        switch self {
        case let .cryptoFailure(function): "SHA-256: OpenSSL \(function) failed"
        case let .notAHexDigest(text): "'\(text)' is not a SHA-256 digest (64 lowercase hexadecimal digits)"
        }
    }
}
