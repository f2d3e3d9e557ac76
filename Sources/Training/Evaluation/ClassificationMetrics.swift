/// The scores of one model on one split at one level (windows or whole sequences).
///
/// Encodes as the JSON object that `metrics.json` holds per split and level:
/// `{"accuracy", "macro_f1", "loss"?, "count", "per_class": {label: {"precision", "recall", "f1", "support"}}}`.
public struct ClassificationMetrics: Sendable, Equatable, Encodable {
    /// The counts the scores derive from.
    public var confusion: ConfusionMatrix
    /// Mean softmax cross-entropy (natural log) over the items; nil at sequence level, where
    /// window probabilities are aggregated rather than predicted by the model.
    public var loss: Double?

    public init(confusion: ConfusionMatrix, loss: Double?) {
        self.confusion = confusion
        self.loss = loss
    }

    /// Fraction of items classified correctly.
    public var accuracy: Double { confusion.accuracy }
    /// Unweighted mean of per-class F1.
    public var macroF1: Double { confusion.macroF1 }
    /// Number of items scored.
    public var count: Int { confusion.total }

    private struct ClassEntry: Encodable {
        var precision: Double, recall: Double, f1: Double, support: Int
    }

    private enum CodingKeys: String, CodingKey {
        case accuracy, macroF1 = "macro_f1", loss, count, perClass = "per_class"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accuracy, forKey: .accuracy)
        try container.encode(macroF1, forKey: .macroF1)
        try container.encodeIfPresent(loss, forKey: .loss)
        try container.encode(count, forKey: .count)
        var perClass: [String: ClassEntry] = [:]
        for (index, label) in confusion.labels.enumerated() {
            let scores = confusion.scores(ofClass: index)
            perClass[label] = ClassEntry(
                precision: scores.precision, recall: scores.recall, f1: scores.f1, support: scores.support)
        }
        try container.encode(perClass, forKey: .perClass)
    }
}

/// Window-level and sequence-level scores of one split.
///
/// Encodes as the window-level object with the sequence-level one nested under `"sequence"`,
/// so `metrics["test"]["accuracy"]` is the per-window accuracy and
/// `metrics["test"]["sequence"]["accuracy"]` the per-recording one.
public struct SplitMetrics: Sendable, Equatable, Encodable {
    /// One prediction per window.
    public var window: ClassificationMetrics
    /// One prediction per sequence, from its windows' aggregated probabilities.
    public var sequence: ClassificationMetrics

    public init(window: ClassificationMetrics, sequence: ClassificationMetrics) {
        self.window = window
        self.sequence = sequence
    }

    private enum CodingKeys: String, CodingKey { case sequence }

    public func encode(to encoder: Encoder) throws {
        try window.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
    }
}
