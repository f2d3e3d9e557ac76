import ManifestSchema

extension TestSetConfiguration: ManifestSection {
    package static var defaults: TestSetConfiguration { TestSetConfiguration(sources: []) }

    package static var settings: [Setting<TestSetConfiguration>] {
        [
            .list("sources", \.sources, of: "source", minimumCount: DataSource.minimumListCount, "sources of the held-out test set")
                .required(),
        ]
    }

    /// Reads `dataset.test`, whose sources' frame rates default to `defaultFrameRate`; `nil` if
    /// the sources are missing or invalid.
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        let reading = Self.read(object)
        guard let node = reading.node(\.sources), let sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate)
        else { return nil }
        self.init(sources: sources)
    }
}

extension TestSetConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
