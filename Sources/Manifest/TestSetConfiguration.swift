import ManifestSchema

/// The held-out test set: sources that are never trained or validated on.
public struct TestSetConfiguration: Sendable, Hashable, Codable {
    /// The test sources; at least one.
    public var sources: [DataSource]

    /// Creates a test set from its sources.
    public init(sources: [DataSource]) {
        self.sources = sources
    }
}

extension TestSetConfiguration {
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        guard let node = object.required("sources"),
            let sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate)
        else { return nil }
        self.init(sources: sources)
    }
}
