import HDF5

/// A failure of the feature cache, with the file it concerns and the underlying reason.
public enum FeatureCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An OpenSSL digest function failed (out of memory, or a FIPS policy forbidding SHA-256).
    case cryptoFailure(function: String)
    /// The source file to hash could not be opened or read; `reason` is the system's message.
    case cannotReadSource(path: String, reason: String)
    /// A cache key was not 64 lowercase hexadecimal digits.
    case invalidKey(String)
    /// The file is HDF5 but its `format` attribute is not `actionlab-feature-cache`.
    case notACacheEntry(file: String, format: String)
    /// The file's `format_version` is not one this code reads (``CacheEntry/formatVersion``).
    case unsupportedFormatVersion(file: String, found: Int64)
    /// The file's contents contradict the layout: a wrong shape, count or key. `object` is the
    /// path inside the file.
    case malformedEntry(file: String, object: String, reason: String)
    /// A sequence to store is inconsistent (keypoint count is not `T * C * J`).
    case invalidSequence(id: String, reason: String)
    /// A file-system step of storing failed; `operation` names it (`fsync`, `rename`), `reason`
    /// is the system's message.
    case cannotWrite(file: String, operation: String, reason: String)
    /// An HDF5 operation failed; the error names the file and object.
    case hdf5(HDF5Error)

    public var description: String {
        switch self {
        case let .cryptoFailure(function): "feature cache: OpenSSL \(function) failed"
        case let .cannotReadSource(path, reason): "feature cache: cannot read source '\(path)': \(reason)"
        case let .invalidKey(key): "feature cache: '\(key)' is not a cache key (64 lowercase hex digits)"
        case let .notACacheEntry(file, format):
            "feature cache: '\(file)' is not a feature-cache entry (format '\(format)')"
        case let .unsupportedFormatVersion(file, found):
            "feature cache: '\(file)' has format_version \(found); this build reads \(CacheEntry.formatVersion)"
        case let .malformedEntry(file, object, reason): "feature cache: '\(file)' at '\(object)': \(reason)"
        case let .invalidSequence(id, reason): "feature cache: sequence '\(id)': \(reason)"
        case let .cannotWrite(file, operation, reason): "feature cache: \(operation) of '\(file)' failed: \(reason)"
        case let .hdf5(error): "feature cache: \(error)"
        }
    }
}
