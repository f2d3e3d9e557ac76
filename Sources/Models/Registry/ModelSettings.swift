/// The settings of one model family: a value with defaults (`init()`), written into
/// `resolved.json` beside the shared `kind`, `dropout` and `normalizeInput` keys of the `model`
/// object, under the same keys a manifest uses.
public protocol ModelSettings: Sendable, Hashable, Codable {
    /// The family's defaults.
    init()
}

extension ModelSettings {
    /// Whether `other` is the same settings value (the equality ``ModelConfiguration`` uses).
    func isEqual(to other: any ModelSettings) -> Bool {
        (other as? Self) == self
    }
}
