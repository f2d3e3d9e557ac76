import Foundation

/// A trial's `metrics.json`, as `RunReport` writes it: per split, window-level scores with the
/// sequence-level ones nested under `"sequence"`. Read by ``TrialFolderCheck`` (its headline scores
/// must equal the completion marker's) and by the Export module (the selection rule, the model card).
public struct TrialMetrics: Sendable, Decodable {
    /// Scores of one level (windows or sequences) of one split.
    public struct Scores: Sendable, Decodable {
        /// Precision, recall, F1 and support of one class.
        public struct ClassScores: Sendable, Decodable {
            public var precision: Double
            public var recall: Double
            public var f1: Double
            public var support: Int
        }

        /// Fraction of items classified correctly.
        public var accuracy: Double
        /// Unweighted mean of per-class F1.
        public var macroF1: Double
        /// Mean cross-entropy (natural log), window level only.
        public var loss: Double?
        /// Items scored.
        public var count: Int
        /// Per-class scores by label.
        public var perClass: [String: ClassScores]

        enum CodingKeys: String, CodingKey {
            case accuracy, macroF1 = "macro_f1", loss, count, perClass = "per_class"
        }
    }

    /// Both levels of one split.
    public struct Split: Sendable, Decodable {
        /// One prediction per window.
        public var window: Scores
        /// One prediction per sequence (recording).
        public var sequence: Scores?

        enum CodingKeys: String, CodingKey { case sequence }

        public init(from decoder: Decoder) throws {
            window = try Scores(from: decoder)
            sequence = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Scores.self, forKey: .sequence)
        }
    }

    /// Splits by name: `train`, `validation`, `test`; absent when the split had no data.
    public var splits: [String: Split]

    public init(from decoder: Decoder) throws {
        splits = try decoder.singleValueContainer().decode([String: Split].self)
    }

    /// Validation accuracy over windows, the selection metric.
    public var validationAccuracy: Double? { splits["validation"]?.window.accuracy }
    /// Validation loss over windows, the first tie-breaker.
    public var validationLoss: Double? { splits["validation"]?.window.loss }
}
