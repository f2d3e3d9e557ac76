/// A problem with a dataset source's listing: its annotation file, or a file name or label
/// that cannot be used. Each names the file and where in it the problem is.
public struct DatasetSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The annotation file or folder.
    public var file: String
    /// Where in `file`: `line 4` of a CSV file, `$[3].end_time` in a JSON file; nil for the whole file.
    public var location: String?
    /// What is wrong, with what was expected and found.
    public var message: String

    /// Creates an error.
    public init(file: String, location: String? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String {
        location.map { "\(file): \($0): \(message)" } ?? "\(file): \(message)"
    }
}
