import Foundation

/// A cache entry that failed verification or validation on reading, and what was done with it:
/// what ``FeatureCache`` reports, once per bad entry, before importing its source again.
public struct DiscardedEntry: Sendable, Equatable, CustomStringConvertible {
    /// What became of the entry's file.
    public enum Disposition: Sendable, Equatable {
        /// Renamed to `<key>.h5.corrupt-<UUID>` in its folder, kept for inspection.
        case movedAside(to: URL)
        /// Deleted, because it could not be renamed.
        case deleted
        /// Left where it is for the new import to replace: an entry without a checksum
        /// (``FeatureCacheError/unverifiedEntry(file:)``), which is old rather than damaged.
        case replacedOnImport
        /// Already replaced by another process's store when it was to be moved; nothing was done.
        case replacedByAnotherWriter
    }

    /// The entry's path (`<cache>/<key[0..<2]>/<key>.h5`).
    public let entry: URL
    /// The source file the entry was looked up for, when the caller named it.
    public let source: String?
    /// Why the entry could not be used.
    public let reason: FeatureCacheError
    /// What was done with the file.
    public let disposition: Disposition

    /// Creates a report.
    public init(entry: URL, source: String?, reason: FeatureCacheError, disposition: Disposition) {
        self.entry = entry
        self.source = source
        self.reason = reason
        self.disposition = disposition
    }

    /// One line: the entry, its source, why it was not used, what was done and what happens next,
    /// for example `cache entry '/c/46/46d5...h5' (of '/data/GunPoint_TRAIN.ts') is damaged: ...;
    /// moved aside to '/c/46/46d5...h5.corrupt-...'; importing the source again`.
    public var description: String {
        let what: String = switch reason {
        case let .damagedEntry(_, why): "is damaged: \(why)"
        case .unverifiedEntry: "has no checksum (an earlier ActionLab wrote it)"
        default: "cannot be read: \(reason)"
        }
        let done: String = switch disposition {
        case let .movedAside(aside): "moved aside to '\(aside.path)'"
        case .deleted: "deleted (it could not be renamed)"
        case .replacedOnImport: "the new import replaces it"
        case .replacedByAnotherWriter: "another process has replaced it since"
        }
        let source = self.source.map { " (of '\($0)')" } ?? ""
        return "cache entry '\(entry.path)'\(source) \(what); \(done); importing the source again"
    }
}
