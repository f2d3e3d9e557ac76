/// A manifest object whose keys are declared once, as ``Setting``s: a section such as
/// `training`, or a model family's payload.
///
/// From ``settings`` and ``defaults`` the protocol's extension derives the reader
/// (``read(_:startingFrom:)``: every declared key, its messages, the unknown-key report with
/// spelling suggestions), the manifest form of `resolved.json` (``encodeSettings(to:)``,
/// ``init(decodingSettingsFrom:)``) and the manifest reference (``referenceRows(under:)``).
///
/// Checks that involve several keys (a warm-up shorter than the run, momentum only with SGD)
/// stay in the section's own reader, which calls ``read(_:startingFrom:)`` first and then
/// looks at the outcome of each key through ``ManifestSectionReading``, naming keys by their
/// key paths, never by their names. A conforming type states its `Codable` witnesses as
/// `encodeSettings(to:)` and `init(decodingSettingsFrom:)`, so that nothing is synthesized.
package protocol ManifestSection: Codable {
    /// The section as a manifest that states none of its keys reads it: the default of every
    /// setting. Path defaults are resolved against the base directory when reading
    /// (``Setting/path(_:_:default:_:)``).
    static var defaults: Self { get }

    /// The section's keys, in the order they are read; the reference lists them in this order,
    /// and an unknown key's message lists them in it when no key is near.
    static var settings: [Setting<Self>] { get }
}

extension ManifestSection {
    /// Reads every declared key of `object` into the defaults, reporting every problem.
    ///
    /// - Parameters:
    ///   - object: The section's manifest object.
    ///   - initial: The values absent keys keep, when they depend on keys outside the section
    ///     (a source's frame rate defaults to `features.frameRate`); ``defaults`` otherwise.
    /// - Returns: The section and how reading each key went, for the section's own checks.
    package static func read(_ object: ManifestObjectReader, startingFrom initial: Self? = nil) -> ManifestSectionReading<Self> {
        var value = initial ?? defaults
        let settings = settings
        for setting in settings { setting.prepare?(&value, object.node.diagnostics) }
        var outcomes: [String: ManifestObjectReader.Outcome] = [:]
        var derivedValues: [String: Any] = [:]
        for setting in settings {
            outcomes[setting.key] = setting.read(into: &value, from: object, derivedValues: &derivedValues)
        }
        return ManifestSectionReading(value: value, object: object, outcomes: outcomes, derivedValues: derivedValues)
    }

    /// The manifest key declared for `keyPath`, for messages that name a key of a nested
    /// section (``ManifestSectionReading/key(_:)`` names the keys of the section being read).
    package static func key(_ keyPath: PartialKeyPath<Self>) -> String {
        settings.first { $0.keyPath == keyPath }?.key ?? "\(keyPath)"
    }

    /// Reads a section that needs no checks beyond its keys' own.
    package init(readingSettingsOf object: ManifestObjectReader) {
        self = Self.read(object).value
    }

    /// Writes the section in manifest form: every setting under its key, except those whose
    /// mode leaves them out (``Setting/encoded(when:)``) and unset optional ones.
    package func encodeSettings(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SettingCodingKey.self)
        for setting in Self.settings { try setting.encode(self, to: &container) }
    }

    /// Reads a section back from manifest form; an absent key keeps its default.
    package init(decodingSettingsFrom decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: SettingCodingKey.self)
        var value = Self.defaults
        for setting in Self.settings { try setting.decode(into: &value, from: container) }
        self = value
    }

    /// The manifest reference of the section: one row per setting, each followed by the rows
    /// of a nested section.
    ///
    /// - Parameter prefix: The dotted path of the section in the manifest, such as `training`;
    ///   empty for the top level.
    package static func referenceRows(under prefix: String = "") -> [ManifestReferenceRow] {
        let defaults = defaults
        return settings.flatMap { setting -> [ManifestReferenceRow] in
            let path = prefix.isEmpty ? setting.key : "\(prefix).\(setting.key)"
            let row = ManifestReferenceRow(
                key: path, type: setting.type, defaultValue: setting.describeDefault(defaults), bounds: setting.bounds,
                documentation: setting.documentation)
            return [row] + (setting.nestedRows?(path) ?? [])
        }
    }
}
