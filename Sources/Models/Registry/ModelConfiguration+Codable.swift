extension ModelConfiguration: Codable {
    private struct KindKey: CodingKey {
        var stringValue: String { ModelConfiguration.kindKey }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { guard stringValue == ModelConfiguration.kindKey else { return nil } }
        init?(intValue: Int) { nil }
    }

    /// Manifest form: `kind`, the shared settings and the family's own in one object, as a
    /// manifest writes them.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: KindKey.self)
        try container.encode(kind, forKey: KindKey())
        try SharedModelSettings(dropout: dropout, normalizeInput: normalizeInput, stream: stream).encode(to: encoder)
        try settings.encode(to: encoder)
    }

    /// Decodes the manifest form with the families of the registry in the decoder's `userInfo`
    /// (``ModelRegistry/userInfoKey``), else ``ModelRegistry/builtIn``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a kind no registered family has.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: KindKey.self)
        let registry = ModelRegistry.of(decoder)
        let kind = try container.decode(String.self, forKey: KindKey())
        guard let family = registry.family(named: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: KindKey(), in: container, debugDescription: "\(ModelRegistryError.unknownKind(kind, known: registry.names))")
        }
        let shared = try SharedModelSettings(from: decoder)
        self.init(
            registered: family, settings: try family.decode(from: decoder), dropout: shared.dropout,
            normalizeInput: shared.normalizeInput, stream: shared.stream)
    }
}
