import ManifestSchema

/// The held-out test set: sources that are never trained or validated on.
public struct TestSetConfiguration: Sendable, Hashable {
    /// The test sources; at least one.
    public var sources: [DataSource]

    /// Creates a test set from its sources.
    public init(sources: [DataSource]) {
        self.sources = sources
    }
}
