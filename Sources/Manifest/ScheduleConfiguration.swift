import ManifestSchema
import NeuralNetwork

/// The manifest's `training.schedule`: how the learning rate changes from epoch to epoch.
///
/// The rate is set once per epoch (`LearningRateSchedule`, PyTorch's `LinearLR` warm-up followed
/// by `StepLR` or `CosineAnnealingLR`, stepped per epoch).
public struct ScheduleConfiguration: Sendable, Hashable {
    /// The shape of the schedule after the warm-up.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// `training.learningRate` throughout.
        case constant
        /// Multiplied by ``gamma`` every ``stepEpochs`` epochs.
        case step
        /// Cosine annealing from `training.learningRate` to ``minimumLearningRate`` at the last epoch.
        case cosine
    }

    /// The shape after the warm-up.
    public var kind: Kind
    /// Epochs between decays of ``Kind/step``, at least 1.
    public var stepEpochs: Int
    /// The decay factor of ``Kind/step``, in (0, 1].
    public var gamma: Double
    /// The final rate of ``Kind/cosine``, at least 0 and below `training.learningRate`.
    public var minimumLearningRate: Double
    /// Epochs of linear warm-up before the schedule, from `η/W` up to `η`; 0 for none.
    public var warmupEpochs: Int

    /// Creates a schedule configuration; the default is a constant rate without warm-up.
    public init(kind: Kind = .constant, stepEpochs: Int = 30, gamma: Double = 0.1, minimumLearningRate: Double = 0, warmupEpochs: Int = 0) {
        self.kind = kind
        self.stepEpochs = stepEpochs
        self.gamma = gamma
        self.minimumLearningRate = minimumLearningRate
        self.warmupEpochs = warmupEpochs
    }

    /// The schedule of a run.
    ///
    /// - Parameters:
    ///   - learningRate: The base rate (`training.learningRate`).
    ///   - epochs: The run's epochs (`training.epochs`).
    public func schedule(learningRate: Double, epochs: Int) -> LearningRateSchedule {
        let shape: LearningRateSchedule.Kind
        switch kind {
        case .constant: shape = .constant
        case .step: shape = .step(everyEpochs: stepEpochs, gamma: gamma)
        case .cosine: shape = .cosine(minimum: minimumLearningRate)
        }
        return LearningRateSchedule(baseLearningRate: learningRate, kind: shape, warmupEpochs: warmupEpochs, totalEpochs: epochs)
    }
}

extension ScheduleConfiguration {
    /// Reads `training.schedule`; settings of another kind are contradictions.
    init(reading object: ManifestObjectReader) {
        self.init()
        let kindOutcome = object.read("kind", into: &kind) { $0.choice(Kind.self) }
        object.read("stepEpochs", into: &stepEpochs) { $0.integer(.atLeast(1)) }
        object.read("gamma", into: &gamma) { $0.double(NumericBounds(lower: .init(value: 0, isInclusive: false), upper: .init(value: 1, isInclusive: true))) }
        object.read("minimumLearningRate", into: &minimumLearningRate) { $0.double(.nonNegative) }
        object.read("warmupEpochs", into: &warmupEpochs) { $0.integer(.nonNegative) }
        guard kindOutcome != .invalid else { return }
        for (key, owner) in [("stepEpochs", Kind.step), ("gamma", .step), ("minimumLearningRate", .cosine)] where owner != kind {
            object.member(key)?.report(
                "contradictory values: \(object.path(key)) applies only to kind '\(owner.rawValue)', but "
                    + "\(object.path("kind")) is '\(kind.rawValue)'")
        }
    }
}

extension ScheduleConfiguration: Codable {
    private enum CodingKeys: String, CodingKey { case kind, stepEpochs, gamma, minimumLearningRate, warmupEpochs }

    /// Manifest form: the kind, the warm-up, and only the kind's own settings.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if kind == .step {
            try container.encode(stepEpochs, forKey: .stepEpochs)
            try container.encode(gamma, forKey: .gamma)
        }
        if kind == .cosine { try container.encode(minimumLearningRate, forKey: .minimumLearningRate) }
        try container.encode(warmupEpochs, forKey: .warmupEpochs)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ScheduleConfiguration()
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            stepEpochs: try container.decodeIfPresent(Int.self, forKey: .stepEpochs) ?? defaults.stepEpochs,
            gamma: try container.decodeIfPresent(Double.self, forKey: .gamma) ?? defaults.gamma,
            minimumLearningRate: try container.decodeIfPresent(Double.self, forKey: .minimumLearningRate) ?? defaults.minimumLearningRate,
            warmupEpochs: try container.decodeIfPresent(Int.self, forKey: .warmupEpochs) ?? defaults.warmupEpochs)
    }
}
