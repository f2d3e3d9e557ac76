extension ModelConfiguration: Codable {
    private enum CodingKeys: String, CodingKey { case kind, dropout, normalizeInput }

    /// Manifest form: `kind`, `dropout`, `normalizeInput` and the family's own keys in one
    /// object, as a manifest writes them.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(dropout, forKey: .dropout)
        try container.encode(normalizeInput, forKey: .normalizeInput)
        try settings.encode(to: encoder)
    }

    /// Decodes the manifest form with the families of the registry in the decoder's `userInfo`
    /// (``ModelRegistry/userInfoKey``), else ``ModelRegistry/builtIn``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a kind no registered family has.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let registry = ModelRegistry.of(decoder)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let family = registry.family(named: kind) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "\(ModelRegistryError.unknownKind(kind, known: registry.names))")
        }
        self.init(
            registered: family, settings: try family.decode(from: decoder),
            dropout: try container.decode(Double.self, forKey: .dropout),
            normalizeInput: try container.decodeIfPresent(Bool.self, forKey: .normalizeInput) ?? false)
    }
}
