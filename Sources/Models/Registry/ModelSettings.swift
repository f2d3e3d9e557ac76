import ManifestSchema

/// The settings of one model family, each manifest key declared once (``ManifestSchema/Setting``):
/// reading, the `resolved.json` form (beside the shared `kind`, `dropout` and `normalizeInput`
/// keys of the `model` object) and the README's reference rows all derive from ``settings``.
///
/// A conforming type states its `Codable` witnesses as `encodeSettings(to:)` and
/// `init(decodingSettingsFrom:)`, as every manifest section does.
package protocol ModelSettings: ManifestSection, Sendable, Hashable {}

extension ModelSettings {
    /// Whether `other` is the same settings value (the equality ``ModelConfiguration`` uses).
    func isEqual(to other: any ModelSettings) -> Bool {
        (other as? Self) == self
    }
}
