import ManifestSchema

/// How the validation set is made: carved from the training sources, read from its own
/// sources, or not made at all.
public struct ValidationConfiguration: Sendable, Hashable {
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
    /// The file-name field (``DataSource/pattern``) whose values group recordings for the
    /// ``Strategy/automatic`` split, such as `subject`: no subject is then on both sides, as
    /// cross-subject evaluation needs. Nil groups by recording.
    public var groupBy: String?

    /// Creates a validation configuration; the defaults carve 20% of the groups with seed 0.
    public init(
        strategy: Strategy = .automatic, fraction: Double = 0.2, seed: Int = 0, sources: [DataSource] = [], groupBy: String? = nil
    ) {
        self.strategy = strategy
        self.fraction = fraction
        self.seed = seed
        self.sources = sources
        self.groupBy = groupBy
    }
}
