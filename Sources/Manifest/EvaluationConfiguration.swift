import ManifestSchema

/// How trained models are scored.
public struct EvaluationConfiguration: Sendable, Hashable {
    /// How a sequence's window predictions combine into one sequence-level prediction.
    public enum Aggregation: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// The label with the highest mean window probability.
        case mean
        /// The label most windows predict (majority vote).
        case vote
    }

    /// How a sequence's window predictions combine into one sequence-level prediction.
    public var aggregation: Aggregation

    /// Creates an evaluation configuration.
    public init(aggregation: Aggregation = .mean) {
        self.aggregation = aggregation
    }
}
