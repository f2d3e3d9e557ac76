import ManifestSchema

extension ModelRegistry {
    /// The reference of the `model` object: `model.kind` with every family, the shared keys,
    /// then each family's keys once, with the kinds that take them.
    ///
    /// - Returns: The rows of README.md's model table.
    package func referenceRows() -> [ManifestReferenceRow] {
        let kinds = families.map { "`\($0.name)`: \($0.summary)" }.joined(separator: "; ")
        var rows = [ManifestReferenceRow(
            key: "model.\(ModelConfiguration.kindKey)", type: "one of " + names.map { "`\($0)`" }.joined(separator: ", "),
            defaultValue: "`\"\(ModelConfiguration().kind)\"`", bounds: "", documentation: "the model family: " + kinds)]
        rows += SharedModelSettings.referenceRows(under: "model")
        var seen: Set<String> = []
        for family in families {
            for row in family.referenceRows where seen.insert(row.key).inserted {
                let owners = families.filter { $0.referenceRows.contains { $0.key == row.key } }.map { "`\($0.name)`" }
                var row = row
                row.documentation = owners.joined(separator: ", ") + " only: " + row.documentation
                rows.append(row)
            }
        }
        return rows
    }
}
