extension Setting {
    /// A nested section, such as `training.schedule`, read by `reading` (which runs its own
    /// checks); an absent key reads as an empty object, so the nested defaults apply.
    ///
    /// - Parameters:
    ///   - key: The manifest key.
    ///   - keyPath: The property the nested section is stored in.
    ///   - documentation: One line for the manifest reference, in Markdown.
    ///   - reading: Reads the nested section from its object.
    package static func section<Nested: ManifestSection>(
        _ key: String, _ keyPath: WritableKeyPath<Section, Nested>, _ documentation: String,
        reading: @escaping (ManifestObjectReader) -> Nested
    ) -> Setting {
        var setting = section(key, keyPath, documentation)
        setting.reading = .section { section, object, key in
            let isPresent = object.member(key) != nil
            guard let value = object.section(key, { reading($0) }) else { return .invalid }
            section[keyPath: keyPath] = value
            return isPresent ? .valid : .absent
        }
        return setting
    }

    /// A nested section read by the section's own reader, because it needs keys outside it
    /// (such as the default frame rate of data sources).
    package static func section<Nested: ManifestSection>(
        _ key: String, _ keyPath: WritableKeyPath<Section, Nested>, _ documentation: String
    ) -> Setting {
        let codingKey = SettingCodingKey(key)
        var setting = Setting(
            key: key, keyPath: keyPath, documentation: documentation, type: "object", bounds: "", reading: .bySection,
            describeDefault: { _ in "" })
        setting.encodeValue = { section, container in try container.encode(section[keyPath: keyPath], forKey: codingKey) }
        setting.decodeValue = { section, container in
            if let value = try container.decodeIfPresent(Nested.self, forKey: codingKey) { section[keyPath: keyPath] = value }
        }
        setting.nestedRows = { Nested.referenceRows(under: $0) }
        return setting
    }

    /// A section that is either stated or absent (`nil`), such as `training.earlyStopping`, read
    /// by `reading`.
    package static func optionalSection<Nested: ManifestSection>(
        _ key: String, _ keyPath: WritableKeyPath<Section, Nested?>, _ documentation: String,
        reading: @escaping (ManifestObjectReader) -> Nested
    ) -> Setting {
        var setting = optionalSection(key, keyPath, documentation)
        setting.reading = .stored { section, node in
            guard let value = node.object({ reading($0) }) else { return false }
            section[keyPath: keyPath] = value
            return true
        }
        return setting
    }

    /// A section that is either stated or absent, read by the section's own reader.
    package static func optionalSection<Nested: ManifestSection>(
        _ key: String, _ keyPath: WritableKeyPath<Section, Nested?>, _ documentation: String
    ) -> Setting {
        let codingKey = SettingCodingKey(key)
        var setting = Setting(
            key: key, keyPath: keyPath, documentation: documentation, type: "object", bounds: "", reading: .bySection,
            describeDefault: { $0[keyPath: keyPath] == nil ? "none" : "" })
        setting.encodeValue = { section, container in try container.encodeIfPresent(section[keyPath: keyPath], forKey: codingKey) }
        setting.decodeValue = { section, container in
            if let value = try container.decodeIfPresent(Nested.self, forKey: codingKey) { section[keyPath: keyPath] = value }
        }
        setting.nestedRows = { Nested.referenceRows(under: $0) }
        return setting
    }

    /// A list of sections, such as data sources, read by the section's own reader. The
    /// reference describes the element's keys in a table of their own, so none are nested here.
    ///
    /// - Parameters:
    ///   - key: The manifest key.
    ///   - keyPath: The property the list is stored in.
    ///   - noun: What one element is called in the reference's type column, such as `source`.
    ///   - minimumCount: The fewest elements allowed, for the bounds column.
    ///   - documentation: One line for the manifest reference, in Markdown.
    package static func list<Element: ManifestSection>(
        _ key: String, _ keyPath: WritableKeyPath<Section, [Element]>, of noun: String, minimumCount: Int = 0, _ documentation: String
    ) -> Setting {
        let codingKey = SettingCodingKey(key)
        var setting = Setting(
            key: key, keyPath: keyPath, documentation: documentation, type: "list of \(noun)s",
            bounds: minimumCount > 0 ? "at least \(minimumCount) element\(minimumCount == 1 ? "" : "s")" : "", reading: .bySection,
            describeDefault: { $0[keyPath: keyPath].isEmpty ? "`[]`" : "" })
        setting.encodeValue = { section, container in try container.encode(section[keyPath: keyPath], forKey: codingKey) }
        setting.decodeValue = { section, container in
            if let value = try container.decodeIfPresent([Element].self, forKey: codingKey) { section[keyPath: keyPath] = value }
        }
        return setting
    }
}
