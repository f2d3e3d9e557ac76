import ManifestSchema

/// The manifest's `training.earlyStopping`: stop when a validation metric has not improved for
/// ``patience`` epochs (Prechelt, "Early Stopping — But When?", 1998; Keras' `EarlyStopping`).
public struct EarlyStoppingConfiguration: Sendable, Hashable {
    /// The monitored validation metric.
    public enum Metric: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// Validation window accuracy; higher is better.
        case validationAccuracy = "validation.accuracy"
        /// Validation cross-entropy; lower is better.
        case validationLoss = "validation.loss"

        /// Whether larger values are better.
        public var isMaximized: Bool { self == .validationAccuracy }
    }

    /// The monitored metric.
    public var metric: Metric
    /// Epochs without improvement after which training stops, at least 1.
    public var patience: Int
    /// The smallest change that counts as an improvement, at least 0.
    public var minimumDelta: Double

    /// Creates an early-stopping configuration.
    public init(metric: Metric = .validationAccuracy, patience: Int = 10, minimumDelta: Double = 0) {
        self.metric = metric
        self.patience = patience
        self.minimumDelta = minimumDelta
    }
}
