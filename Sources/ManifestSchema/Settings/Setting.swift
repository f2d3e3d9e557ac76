import Foundation

/// One manifest key, declared once: its name, where its value lives in the section, its kind
/// (type and bounds), its default and one line of documentation.
///
/// A section lists its settings in ``ManifestSection/settings``; the reader with its messages
/// and spelling suggestions, the manifest form written to `resolved.json` and read back, and the
/// manifest reference in the README are all derived from that list, as swift-argument-parser
/// derives parsing and help from one `@Option`:
///
/// ```swift
/// Setting("epochs", \.epochs, .integer(.closed(1, 100_000)), "passes over the training windows")
/// Setting("momentum", \.momentum, .number(.unitInterval), "`sgd` only").encoded { $0.optimizer == .sgd }
/// ```
///
/// The default is the value in the section's ``ManifestSection/defaults``, described by the kind;
/// ``defaultText(_:)`` replaces the description where the default depends on other keys.
package struct Setting<Section> {
    /// How the section reader handles the key.
    enum Reading {
        /// Read with the kind and stored in the section.
        case stored((inout Section, ManifestNode) -> Bool)
        /// Read with the kind and kept for the section's own reader, which decides what it means.
        case derived((ManifestNode) -> Any?)
        /// Only made known (so it is not an unknown key); the section's own reader reads it,
        /// because its value depends on keys outside the section.
        case bySection
        /// A nested section, read from an empty object when absent so that its own defaults and
        /// required keys apply.
        case section((inout Section, ManifestObjectReader, String) -> ManifestObjectReader.Outcome)
    }

    /// The manifest key, such as `epochs`.
    package let key: String
    /// Where the value lives in the section.
    package let keyPath: PartialKeyPath<Section>
    /// One line of documentation for the manifest reference, in Markdown.
    package let documentation: String
    /// The type in words, such as `integer`.
    package let type: String
    /// The allowed values in words, such as `[1, 100000]`; empty when the type is enough.
    package let bounds: String

    var reading: Reading
    var isRequired = false
    var missingExplanation: String?
    var describeDefault: (Section) -> String
    var prepare: ((inout Section, ManifestDiagnostics) -> Void)?
    var encodeValue: ((Section, inout KeyedEncodingContainer<SettingCodingKey>) throws -> Void)?
    var isEncoded: (Section) -> Bool = { _ in true }
    var decodeValue: ((inout Section, KeyedDecodingContainer<SettingCodingKey>) throws -> Void)?
    var nestedRows: ((String) -> [ManifestReferenceRow])?

    init(
        key: String, keyPath: PartialKeyPath<Section>, documentation: String, type: String, bounds: String, reading: Reading,
        describeDefault: @escaping (Section) -> String
    ) {
        self.key = key
        self.keyPath = keyPath
        self.documentation = documentation
        self.type = type
        self.bounds = bounds
        self.reading = reading
        self.describeDefault = describeDefault
    }

    /// A key whose value is stored at `keyPath`, read, written and described by `kind`.
    ///
    /// - Parameters:
    ///   - key: The manifest key.
    ///   - keyPath: The property the value is stored in.
    ///   - kind: How the value is read, written and described.
    ///   - documentation: One line for the manifest reference, in Markdown.
    package init<Value>(_ key: String, _ keyPath: WritableKeyPath<Section, Value>, _ kind: SettingKind<Value>, _ documentation: String) {
        let codingKey = SettingCodingKey(key)
        self.init(
            key: key, keyPath: keyPath, documentation: documentation, type: kind.type, bounds: kind.bounds,
            reading: .stored { section, node in
                guard let value = kind.read(node) else { return false }
                section[keyPath: keyPath] = value
                return true
            },
            describeDefault: { kind.describe($0[keyPath: keyPath]).map { "`\($0)`" } ?? "none" })
        encodeValue = { section, container in try kind.encode(section[keyPath: keyPath], &container, codingKey) }
        decodeValue = { section, container in
            if let value = try kind.decode(container, codingKey) { section[keyPath: keyPath] = value }
        }
    }

    /// A key that is read and checked by `kind` but not stored, because the section computes
    /// the property from other keys (such as an action duration from a window size and frame
    /// rate); its value is ``ManifestSectionReading/derivedValue(_:)``. It is not written to the
    /// manifest form.
    package static func derived<Value>(
        _ key: String, _ keyPath: KeyPath<Section, Value>, _ kind: SettingKind<Value>, _ documentation: String
    ) -> Setting {
        Setting(
            key: key, keyPath: keyPath, documentation: documentation, type: kind.type, bounds: kind.bounds,
            reading: .derived { kind.read($0) }, describeDefault: { kind.describe($0[keyPath: keyPath]).map { "`\($0)`" } ?? "none" })
    }

    /// A folder path (``SettingKind/folderPath``: missing is fine, a file is reported) whose
    /// default is `defaultPath` relative to the manifest's base directory.
    ///
    /// - Parameters:
    ///   - key: The manifest key.
    ///   - keyPath: The property the absolute URL is stored in.
    ///   - defaultPath: The default, relative to the base directory, such as `reports`.
    ///   - documentation: One line for the manifest reference, in Markdown.
    package static func path(
        _ key: String, _ keyPath: WritableKeyPath<Section, URL>, default defaultPath: String, _ documentation: String
    ) -> Setting {
        var setting = Setting(key, keyPath, .folderPath, documentation).defaultText("`\"\(defaultPath)\"`")
        setting.prepare = { section, diagnostics in section[keyPath: keyPath] = diagnostics.resolve(defaultPath) }
        return setting
    }

    /// A key whose value is read by the section's own reader with a reader declared elsewhere
    /// (such as the model, whose keys its family declares), and written in the value's own
    /// `Codable` form. The reference gives it one row; its keys are documented where they are
    /// declared.
    package static func external<Value: Codable>(
        _ key: String, _ keyPath: WritableKeyPath<Section, Value>, type: String, _ documentation: String
    ) -> Setting {
        let codingKey = SettingCodingKey(key)
        var setting = Setting(
            key: key, keyPath: keyPath, documentation: documentation, type: type, bounds: "", reading: .bySection,
            describeDefault: { _ in "" })
        setting.encodeValue = { section, container in try container.encode(section[keyPath: keyPath], forKey: codingKey) }
        setting.decodeValue = { section, container in
            if let value = try container.decodeIfPresent(Value.self, forKey: codingKey) { section[keyPath: keyPath] = value }
        }
        return setting
    }

    // MARK: - Modifiers

    /// The setting, reported as missing when absent.
    ///
    /// - Parameter explanation: What the value is, added to the message after a colon.
    package func required(_ explanation: String? = nil) -> Setting {
        var setting = self
        setting.isRequired = true
        setting.missingExplanation = explanation
        setting.describeDefault = { _ in "required" }
        return setting
    }

    /// The setting, read by the section's own reader instead of the generic one (through
    /// ``ManifestSectionReading/node(_:)``), because its value depends on keys outside the
    /// section; it is still a known key and is still written and described.
    package func readBySection() -> Setting {
        var setting = self
        setting.reading = .bySection
        return setting
    }

    /// The setting, written to the manifest form only when `condition` holds for the section, as
    /// a manifest states a key only in the mode it applies to (SGD's momentum, for example).
    package func encoded(when condition: @escaping (Section) -> Bool) -> Setting {
        var setting = self
        setting.isEncoded = condition
        return setting
    }

    /// The setting with its default described by `markdown` instead of by its value, for a
    /// default that depends on other keys (`features.frameRate`, `duration × frame rate`).
    package func defaultText(_ markdown: String) -> Setting {
        var setting = self
        setting.describeDefault = { _ in markdown }
        return setting
    }

    // MARK: - Use

    /// Reads the key from `object` into `section` as the setting says, reporting problems.
    func read(
        into section: inout Section, from object: ManifestObjectReader, derivedValues: inout [String: Any]
    ) -> ManifestObjectReader.Outcome {
        if case .section(let read) = reading { return read(&section, object, key) }
        guard let node = object.member(key) else {
            if isRequired { object.reportMissing(key, missingExplanation) }
            return .absent
        }
        switch reading {
        case .stored(let read):
            return read(&section, node) ? .valid : .invalid
        case .derived(let read):
            guard let value = read(node) else { return .invalid }
            derivedValues[key] = value
            return .valid
        case .bySection, .section:
            return .valid
        }
    }

    /// Writes the key, unless the section's mode leaves it out.
    func encode(_ section: Section, to container: inout KeyedEncodingContainer<SettingCodingKey>) throws {
        guard isEncoded(section) else { return }
        try encodeValue?(section, &container)
    }

    /// Reads the key back into `section` if present.
    func decode(into section: inout Section, from container: KeyedDecodingContainer<SettingCodingKey>) throws {
        try decodeValue?(&section, container)
    }
}
