import ManifestSchema

extension ValidationConfiguration: ManifestSection {
    /// (0, 0.5]: some groups must validate, and no more than half may leave training.
    private static let fractionBounds = NumericBounds(
        lower: .init(value: 0, isInclusive: false), upper: .init(value: 0.5, isInclusive: true))

    package static var defaults: ValidationConfiguration { ValidationConfiguration() }

    package static var settings: [Setting<ValidationConfiguration>] {
        [
            Setting("strategy", \.strategy, .choice(Strategy.self),
                    "`automatic` (seeded, stratified by label, grouped by recording), `files`, or `none`"),
            Setting("fraction", \.fraction, .number(fractionBounds), "share of each label's recordings held out; `automatic` only")
                .encoded { $0.strategy == .automatic },
            Setting("seed", \.seed, .integer(.nonNegative), "seed of the split, independent of the training seeds; `automatic` only")
                .encoded { $0.strategy == .automatic },
            Setting("groupBy", \.groupBy, .optional(.nonEmptyString),
                    "a file-name field (the sources' `pattern`), such as `subject`: the `automatic` split holds out whole values of it, "
                        + "so no subject is on both sides")
                .defaultText("the recording"),
            .list("sources", \.sources, of: "source", minimumCount: DataSource.minimumListCount,
                  "sources of the validation set; required with `files`, an error otherwise")
                .encoded { $0.strategy == .files },
        ]
    }

    /// Reads `dataset.validation`, whose sources' frame rates default to `defaultFrameRate`;
    /// settings of another strategy are contradictions.
    init(reading object: ManifestObjectReader, defaultFrameRate: Double, trainingSources: [DataSource]) {
        let reading = Self.read(object)
        self = reading.value
        guard reading.outcome(\.strategy) != .invalid else { return }
        if let groupNode = reading.node(\.groupBy), let field = groupBy {
            if strategy != .automatic {
                groupNode.report(
                    "contradictory values: \(reading.key(\.groupBy)) applies only to \(reading.key(\.strategy)) "
                        + "'\(Strategy.automatic.rawValue)', but \(reading.path(\.strategy)) is '\(strategy.rawValue)'")
            }
            if field == "label" {
                groupNode.report("value out of range: grouping by 'label' would hold out whole classes; group by a field such as 'subject'")
            }
            DataSource.reportSourcesWithout(field: field, in: trainingSources, at: groupNode)
        }

        let strategyKey = reading.key(\.strategy)
        let strategyPath = reading.path(\.strategy)
        if strategy != .automatic, let fractionNode = reading.node(\.fraction) {
            fractionNode.report(
                "contradictory values: \(reading.key(\.fraction)) applies only to \(strategyKey) '\(Strategy.automatic.rawValue)', "
                    + "but \(strategyPath) is '\(strategy.rawValue)'")
        }
        switch (strategy, reading.node(\.sources)) {
        case (.files, nil):
            object.reportMissing(reading.key(\.sources), "\(strategyPath) '\(Strategy.files.rawValue)' needs validation sources")
        case (.files, let node?):
            sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate) ?? []
        case (_, let node?):
            node.report(
                "contradictory values: validation sources are read only with \(strategyKey) '\(Strategy.files.rawValue)', "
                    + "but \(strategyPath) is '\(strategy.rawValue)'")
        case (_, nil):
            break
        }
    }
}

extension ValidationConfiguration: Codable {
    /// Manifest form: the fraction and seed only for the automatic split, the sources only for files.
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
