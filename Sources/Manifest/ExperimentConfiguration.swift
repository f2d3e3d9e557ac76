import Foundation
import Models

/// Everything one experiment does, fully resolved from its manifest: data, features, windows,
/// model, training, evaluation and output.
///
/// A manifest (`experiments/NAME.json5`) states only what differs from the defaults; reading
/// it with ``load(contentsOf:baseDirectory:)`` fills in every default, resolves every path to
/// an absolute URL and checks every value, reporting all problems at once as a
/// ``ManifestError``. The configuration is `Codable` so that ``resolvedJSON()`` can save it
/// beside each run's outputs.
public struct ExperimentConfiguration: Sendable, Hashable {
    /// The experiment's name: 1 to 64 characters of `A-Z a-z 0-9 . _ -`, used in folder names.
    public var name: String
    /// A free-form description for reports.
    public var description: String
    /// The training, validation and test data.
    public var dataset: DatasetConfiguration
    /// The skeleton layout, feature frame rate and feature cache.
    public var features: FeatureConfiguration
    /// How sequences are cut into windows.
    public var windows: WindowConfiguration
    /// The augmentation pipeline applied to training windows.
    public var augmentation: AugmentationConfiguration
    /// The network.
    public var model: ModelConfiguration
    /// The optimizer, schedule and seeds.
    public var training: TrainingConfiguration
    /// How predictions are scored.
    public var evaluation: EvaluationConfiguration
    /// Where runs write their outputs.
    public var output: OutputConfiguration

    /// Creates a configuration from its sections.
    public init(
        name: String, description: String = "", dataset: DatasetConfiguration, features: FeatureConfiguration,
        windows: WindowConfiguration, augmentation: AugmentationConfiguration = .init(), model: ModelConfiguration = .init(),
        training: TrainingConfiguration = .init(), evaluation: EvaluationConfiguration = .init(), output: OutputConfiguration
    ) {
        self.name = name
        self.description = description
        self.dataset = dataset
        self.features = features
        self.windows = windows
        self.augmentation = augmentation
        self.model = model
        self.training = training
        self.evaluation = evaluation
        self.output = output
    }

    /// The number of frames in a window (Create ML's prediction window size).
    public var windowSize: Int { windows.size }

    /// The time a window spans, in seconds: window size / frame rate (Create ML's action duration).
    public var actionDuration: Double { windows.actionDuration }
}
