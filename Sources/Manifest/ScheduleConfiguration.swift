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
