import ManifestSchema

extension EarlyStoppingConfiguration: ManifestSection {
    package static var defaults: EarlyStoppingConfiguration { EarlyStoppingConfiguration() }

    package static var settings: [Setting<EarlyStoppingConfiguration>] {
        [
            Setting("metric", \.metric, .choice(Metric.self), "the monitored validation metric: accuracy (higher is better) or cross-entropy (lower is better)"),
            Setting("patience", \.patience, .integer(.atLeast(1)), "epochs without an improvement after which training stops"),
            Setting("minimumDelta", \.minimumDelta, .number(.nonNegative), "the smallest change that counts as an improvement (Keras' rule)"),
        ]
    }
}

extension EarlyStoppingConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
