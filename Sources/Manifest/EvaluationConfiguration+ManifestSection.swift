import ManifestSchema

extension EvaluationConfiguration: ManifestSection {
    package static var defaults: EvaluationConfiguration { EvaluationConfiguration() }

    package static var settings: [Setting<EvaluationConfiguration>] {
        [
            Setting("aggregation", \.aggregation, .choice(Aggregation.self),
                    "sequence-level prediction from its windows: `mean` probability or majority `vote`"),
        ]
    }
}

extension EvaluationConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
