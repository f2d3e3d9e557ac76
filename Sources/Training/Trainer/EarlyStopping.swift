import Manifest

/// Tracks the best epoch by a validation metric and decides when training stops, with Keras'
/// `EarlyStopping` rule (Prechelt, "Early Stopping — But When?", 1998, the "no improvement for
/// `patience` epochs" criterion).
///
/// An epoch improves when its value beats the best so far by more than `minimumDelta`
/// (`value > best + δ` for accuracy, `value < best − δ` for loss); the first epoch always
/// improves. Training stops after `patience` epochs in a row without improvement. The best
/// epoch is the last improving one, whose weights a run with `training.weights: "bestValidation"`
/// (or `restoreBestWeights`) keeps.
/// The state is a few numbers, saved in checkpoints so that a resumed run stops where an
/// uninterrupted one would.
public struct EarlyStopping: Sendable, Hashable, Codable {
    /// The rule.
    public var configuration: EarlyStoppingConfiguration
    /// The metric value of the best epoch so far, nil before the first epoch.
    public private(set) var bestValue: Double?
    /// The 1-based best epoch so far, 0 before the first epoch.
    public private(set) var bestEpoch = 0
    /// Epochs since the best epoch.
    public private(set) var epochsWithoutImprovement = 0

    /// The rule of a tracker that only finds the best validation epoch and never stops training
    /// (`training.weights: "bestValidation"` without `training.earlyStopping`): validation
    /// accuracy, any improvement, the earliest epoch on ties (as `RunReport.bestValidationEpoch`).
    public static let bestEpochTracking = EarlyStoppingConfiguration(metric: .validationAccuracy, patience: .max, minimumDelta: 0)

    /// Creates a tracker that has seen no epoch.
    public init(configuration: EarlyStoppingConfiguration) {
        self.configuration = configuration
    }

    /// Whether training should stop: `patience` epochs in a row did not improve.
    public var shouldStop: Bool { epochsWithoutImprovement >= configuration.patience }

    /// Records an epoch's validation values.
    ///
    /// - Parameter record: The epoch's record; its validation loss and accuracy must be set.
    /// - Returns: Whether the epoch is the new best.
    public mutating func update(with record: EpochRecord) -> Bool {
        let metric = configuration.metric
        guard let value = metric.isMaximized ? record.validationAccuracy : record.validationLoss else { return false }
        let improved: Bool
        if let bestValue {
            improved = metric.isMaximized
                ? value > bestValue + configuration.minimumDelta
                : value < bestValue - configuration.minimumDelta
        } else {
            improved = true
        }
        if improved {
            bestValue = value
            bestEpoch = record.epoch
            epochsWithoutImprovement = 0
        } else {
            epochsWithoutImprovement += 1
        }
        return improved
    }
}
