import HDF5

/// A failure of the feature cache, with the file it concerns and the underlying reason.
public enum FeatureCacheError: Error, Equatable, Sendable, CustomStringConvertible {
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
    /// The entry's bytes differ from what its checksum header records (a flipped byte, a
    /// truncation, a header that is not one), found before HDF5 parsed the file; `reason` says how.
    case damagedEntry(file: String, reason: String)
    /// The entry has no checksum header: an earlier ActionLab wrote it. It is imported again
    /// rather than trusted, since without a checksum its bytes cannot be checked before HDF5
    /// parses them.
    case unverifiedEntry(file: String)
    /// An entry failed to read and could be neither moved aside nor deleted (a read-only cache);
    /// `damage` is why it failed, `reason` the system's message for the rename.
    case cannotSetAside(file: String, source: String?, damage: String, reason: String)
    /// A sequence to store is inconsistent (keypoint count is not `T * C * J`, or a value is
    /// not finite).
    case invalidSequence(id: String, reason: String)
    /// A file-system step of storing failed; `operation` names it (`fsync`, `rename`), `reason`
    /// is the system's message.
    case cannotWrite(file: String, operation: String, reason: String)
    /// An HDF5 operation failed; the error names the file and object.
    case hdf5(HDF5Error)

    public var description: String {
        switch self {
        case let .cannotReadSource(path, reason): "feature cache: cannot read source '\(path)': \(reason)"
        case let .invalidKey(key): "feature cache: '\(key)' is not a cache key (64 lowercase hex digits)"
        case let .notACacheEntry(file, format):
            "feature cache: '\(file)' is not a feature-cache entry (format '\(format)')"
        case let .unsupportedFormatVersion(file, found):
            "feature cache: '\(file)' has format_version \(found); this build reads \(CacheEntry.formatVersion)"
        case let .malformedEntry(file, object, reason): "feature cache: '\(file)' at '\(object)': \(reason)"
        case let .damagedEntry(file, reason): "feature cache: entry '\(file)' is damaged: \(reason)"
        case let .unverifiedEntry(file):
            "feature cache: entry '\(file)' has no checksum (an earlier ActionLab wrote it), so it is not trusted"
        case let .cannotSetAside(file, source, damage, reason):
            "feature cache: entry '\(file)'\(source.map { " (of '\($0)')" } ?? "") cannot be used (\(damage)) and could not be "
                + "moved aside or deleted (\(reason)); it is still there: delete it, or make the cache folder writable, and run again"
        case let .invalidSequence(id, reason): "feature cache: sequence '\(id)': \(reason)"
        case let .cannotWrite(file, operation, reason): "feature cache: \(operation) of '\(file)' failed: \(reason)"
        case let .hdf5(error): "feature cache: \(error)"
        }
    }
}
