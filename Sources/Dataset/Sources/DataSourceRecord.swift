/// One data source as provenance records it.
public struct DataSourceRecord: Codable, Sendable, Equatable {
    /// Which part of the dataset: `train`, `validation` or `test`.
    public var role: String
    /// Absolute path of the source file.
    public var path: String
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String
    /// The feature-cache key the sequences were stored under.
    public var cacheKey: String
    /// Number of sequences imported from the file.
    public var sequences: Int

    public init(role: String, path: String, sha256: String, cacheKey: String, sequences: Int) {
        self.role = role
        self.path = path
        self.sha256 = sha256
        self.cacheKey = cacheKey
        self.sequences = sequences
    }

    enum CodingKeys: String, CodingKey {
        case role, path, sha256, cacheKey = "cache_key", sequences
    }
}
