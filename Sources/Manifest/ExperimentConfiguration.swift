import Foundation
import ManifestSchema
import Models
import Pose

/// Everything one experiment does, fully resolved from its manifest: data, features, windows,
/// model, training, evaluation and output.
///
/// A manifest (`experiments/NAME.json5`) states only what differs from the defaults; reading
/// it with ``load(contentsOf:baseDirectory:)`` fills in every default, resolves every path to
/// an absolute URL and checks every value, reporting all problems at once as a
/// ``ManifestError``. The configuration is `Codable` so that ``resolvedJSON()`` can save it
/// beside each run's outputs.
public struct ExperimentConfiguration: Sendable, Hashable, Codable {
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

extension ExperimentConfiguration {
    /// The characters an experiment name may use.
    private static let nameCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".unicodeScalars)

    /// Reads the top-level manifest object. Features are read before the dataset and windows
    /// because their frame rate is the default of the sources' and the windows' frame rates;
    /// `model.kind` names a family of `registry`.
    init(reading object: ManifestObjectReader, registry: ModelRegistry) {
        let diagnostics = object.node.diagnostics
        let name = object.required("name", "the experiment's name, used in report folders").flatMap(Self.name(from:))
        var description = ""
        object.read("description", into: &description) { $0.string() }
        let features = object.section("features", FeatureConfiguration.init(reading:))
            ?? FeatureConfiguration(cache: diagnostics.resolve(FeatureConfiguration.defaultCachePath))
        let frameRate = features.frameRate
        let dataset = object.section("dataset") { DatasetConfiguration(reading: $0, defaultFrameRate: frameRate) }
        let windows = object.section("windows") { WindowConfiguration(reading: $0, defaultFrameRate: frameRate) }
        let augmentation = AugmentationConfiguration(reading: object, layout: features.layout)
        let model = object.section("model") { ModelConfiguration(reading: $0, layout: features.layout, registry: registry) }
        let training = object.section("training", TrainingConfiguration.init(reading:))
        if let training, training.earlyStopping != nil, dataset?.validation.strategy == ValidationConfiguration.Strategy.none {
            object.member("training")?.report(
                "contradictory values: \(object.path("training")).earlyStopping monitors the validation set, but "
                    + "\(object.path("dataset")).validation.strategy is 'none'")
        }
        let evaluation = object.section("evaluation", EvaluationConfiguration.init(reading:))
        let output = object.section("output", OutputConfiguration.init(reading:))
        _ = object.member("sweep")  // read by SweepPlan
        Self.checkPoseSources(dataset, layout: features.layout, features: object.member("features"))
        // A section that is not an object has been reported; its default only keeps the
        // configuration whole until the manifest error is thrown.
        self.init(
            name: name ?? "", description: description, dataset: dataset ?? DatasetConfiguration(sources: []), features: features,
            windows: windows ?? WindowConfiguration(size: 1, frameRate: frameRate), augmentation: augmentation,
            model: model ?? ModelConfiguration(),
            training: training ?? TrainingConfiguration(), evaluation: evaluation ?? EvaluationConfiguration(),
            output: output ?? OutputConfiguration(directory: diagnostics.resolve(OutputConfiguration.defaultDirectoryPath)))
    }

    /// Reports a layout other than vision18 when a source produces body pose (videos, OpenPose,
    /// Kinetics-skeleton), whose keypoints are always Vision's 18 joints.
    private static func checkPoseSources(_ dataset: DatasetConfiguration?, layout: SkeletonLayout, features: ManifestNode?) {
        guard layout.name != SkeletonLayout.vision18.name, let dataset, let features else { return }
        let sources = dataset.sources + dataset.validation.sources + (dataset.test?.sources ?? [])
        let formats = Set(sources.map(\.format).filter(\.producesVision18).map(\.rawValue)).sorted()
        guard !formats.isEmpty else { return }
        features.report(
            "layout: '\(layout.name)' cannot hold the keypoints of \(formats.map { "'\($0)'" }.joined(separator: ", ")) sources, "
                + "which are body pose in the 'vision18' layout; use layout 'vision18'")
    }

    private static func name(from node: ManifestNode) -> String? {
        guard let name = node.string() else { return nil }
        guard (1...64).contains(name.unicodeScalars.count), name.unicodeScalars.allSatisfy(nameCharacters.contains) else {
            node.report("value out of range: expected 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-', found '\(name)'")
            return nil
        }
        return name
    }
}
