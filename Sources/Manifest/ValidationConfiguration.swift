import ManifestSchema

/// How the validation set is made: carved from the training sources, read from its own
/// sources, or not made at all.
public struct ValidationConfiguration: Sendable, Hashable, Codable {
    /// Where validation samples come from.
    public enum Strategy: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// A seeded fraction of the training groups, stratified by label.
        case automatic
        /// The samples of ``ValidationConfiguration/sources``.
        case files
        /// No validation set.
        case none
    }

    /// Where validation samples come from.
    public var strategy: Strategy
    /// The fraction of groups moved from training to validation, in (0, 0.5]; used by
    /// ``Strategy/automatic`` only.
    public var fraction: Double
    /// The seed of the split, independent of the training seeds, so that every trial of a sweep
    /// validates on the same samples.
    public var seed: Int
    /// The validation sources; non-empty exactly when the strategy is ``Strategy/files``.
    public var sources: [DataSource]

    /// Creates a validation configuration; the defaults carve 20% of the groups with seed 0.
    public init(strategy: Strategy = .automatic, fraction: Double = 0.2, seed: Int = 0, sources: [DataSource] = []) {
        self.strategy = strategy
        self.fraction = fraction
        self.seed = seed
        self.sources = sources
    }
}

extension ValidationConfiguration {
    /// (0, 0.5]: some groups must validate, and no more than half may leave training.
    private static let fractionBounds = NumericBounds(
        lower: .init(value: 0, isInclusive: false), upper: .init(value: 0.5, isInclusive: true))

    init(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        self.init()
        let strategyOutcome = object.read("strategy", into: &strategy) { $0.choice(Strategy.self) }
        let fractionNode = object.member("fraction")
        if let value = fractionNode?.double(Self.fractionBounds) { fraction = value }
        object.read("seed", into: &seed) { $0.integer(.nonNegative) }
        let sourcesNode = object.member("sources")
        guard strategyOutcome != .invalid else { return }

        let strategyPath = object.path("strategy")
        if strategy != .automatic, let fractionNode {
            fractionNode.report("contradictory values: fraction applies only to strategy 'automatic', but \(strategyPath) is '\(strategy.rawValue)'")
        }
        switch (strategy, sourcesNode) {
        case (.files, nil):
            object.reportMissing("sources", "\(strategyPath) 'files' needs validation sources")
        case (.files, let node?):
            sources = DataSource.list(from: node, defaultFrameRate: defaultFrameRate) ?? []
        case (_, let node?):
            node.report("contradictory values: validation sources are read only with strategy 'files', but \(strategyPath) is '\(strategy.rawValue)'")
        case (_, nil):
            break
        }
    }
}
