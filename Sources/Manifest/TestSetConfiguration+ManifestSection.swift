import JSON5
import ManifestSchema

extension TestSetConfiguration: ManifestSection {
    package static var defaults: TestSetConfiguration { TestSetConfiguration() }

    package static var settings: [Setting<TestSetConfiguration>] {
        [
            .list("sources", \.sources, of: "source", minimumCount: DataSource.minimumListCount, "sources of the held-out test set; "
                  + "give `sources` or `where`")
                .encoded { !$0.sources.isEmpty }.defaultText("none"),
            Setting("where", \.selection, selectionKind,
                    "`{ field: [values] }`: the files of `dataset.sources` whose file-name fields (the sources' `pattern`) have these "
                        + "values are the test set, never trained or validated on (cross-subject: `{ subject: [2, 4, 6, 8] }`)")
                .encoded { !$0.selection.isEmpty }.defaultText("none"),
        ]
    }

    /// `{ field: [value, ...] }`, values integers or strings, kept as text.
    private static var selectionKind: SettingKind<[String: [String]]> {
        SettingKind(
            type: "object of lists", bounds: "integers or strings", describe: { $0.isEmpty ? "{}" : nil },
            read: { node in
                node.dictionary { values in
                    values.array(minimumCount: 1) { value in
                        if let number = value.value.numberValue?.doubleValue, number == number.rounded(), abs(number) < 1e15 {
                            return String(Int(number))
                        }
                        return value.nonEmptyString()
                    }
                }
            })
    }

    /// Reads `dataset.test`: either its own `sources` (frame rates defaulting to
    /// `defaultFrameRate`) or a `where` selection of the training sources, whose every source must
    /// then have a `pattern` naming each selected field; `nil` if invalid.
    init?(reading object: ManifestObjectReader, defaultFrameRate: Double, trainingSources: [DataSource]) {
        let reading = Self.read(object)
        let sourcesNode = reading.node(\.sources)
        let selectionNode = reading.node(\.selection)
        switch (sourcesNode, selectionNode) {
        case (nil, nil):
            object.reportMissing(reading.key(\.sources), "give the test set's own sources, or a \(reading.key(\.selection)) selection of the training files")
            return nil
        case (_?, let selectionNode?):
            selectionNode.report(
                "contradictory values: the test set is either its own \(reading.key(\.sources)) or a \(reading.key(\.selection)) "
                    + "selection of dataset.sources, not both")
            return nil
        case (let node?, nil):
            guard let sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate) else { return nil }
            self.init(sources: sources)
        case (nil, let node?):
            guard reading.outcome(\.selection) == .valid else { return nil }
            let selection = reading.value.selection
            guard !selection.isEmpty else {
                node.report("value out of range: name at least one field, such as { subject: [2, 4, 6, 8] }")
                return nil
            }
            for field in selection.keys.sorted() {
                DataSource.reportSourcesWithout(field: field, in: trainingSources, at: node)
            }
            self.init(selection: selection)
        }
    }
}

extension TestSetConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
