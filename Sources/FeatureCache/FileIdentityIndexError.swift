/// Why a file-identity index file cannot be trusted: the file, the byte offset where reading
/// stopped, and what was wrong there.
public struct FileIdentityIndexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The index file.
    public var file: String
    /// The byte offset in `file` of the field that failed.
    public var offset: Int
    /// What was wrong.
    public var reason: String

    public init(file: String, offset: Int, reason: String) {
        self.file = file
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "file-identity index '\(file)' at byte \(offset): \(reason)" }
}
