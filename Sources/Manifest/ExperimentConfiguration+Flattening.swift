import JSON5

extension ExperimentConfiguration {
    /// The resolved configuration as dotted setting paths and their values, for comparing runs.
    ///
    /// Flattens ``resolvedJSON()`` (the manifest form, every default filled in): an object's
    /// members become `parent.key`; an array of numbers, strings or Booleans stays one value
    /// (`model.channels` → `[64,64,64]`); an array holding objects or arrays is indexed
    /// (`dataset.sources[0].path`). Values are canonical JSON text (`2`, `"flip"`); an empty
    /// object is `{}`. Paths come in sorted key order.
    /// - Returns: `(path, value)` pairs, one per leaf setting.
    public func flattenedSettings() -> [(path: String, value: String)] {
        guard let document = try? JSON5Value(parsing: resolvedJSON()) else { return [] }
        var settings: [(path: String, value: String)] = []
        func visit(_ value: JSON5Value, _ path: String) {
            switch value.kind {
            case .object(let members) where !members.isEmpty:
                for member in members { visit(member.value, path.isEmpty ? member.key : "\(path).\(member.key)") }
            case .array(let elements) where elements.contains(where: { $0.arrayValue != nil || $0.objectMembers != nil }):
                for (index, element) in elements.enumerated() { visit(element, "\(path)[\(index)]") }
            default:
                settings.append((path, value.jsonString(sortedKeys: true)))
            }
        }
        visit(document, "")
        return settings
    }
}
