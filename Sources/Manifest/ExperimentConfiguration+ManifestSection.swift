import Augmentation
import Foundation
import JSON5
import ManifestSchema
import Models
import Pose

extension ExperimentConfiguration: ManifestSection {
    /// The characters an experiment name may use.
    private static let nameCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".unicodeScalars)
    /// The lengths an experiment name may have, in characters.
    private static let nameLengths = 1...64

    /// Every section at its defaults, without a name or sources (both required).
    package static var defaults: ExperimentConfiguration {
        ExperimentConfiguration(name: "", dataset: .defaults, features: .defaults, windows: .defaults, output: .defaults)
    }

    /// The top-level keys, in the order they are read: features before the dataset and windows,
    /// whose frame rates default to `features.frameRate`. `sweep` is left to ``SweepPlan``.
    package static var settings: [Setting<ExperimentConfiguration>] {
        [
            Setting("name", \.name, nameKind, "names the report folder").required("the experiment's name, used in report folders"),
            Setting("description", \.description, .string, "free text for reports; not part of the trial id"),
            .section("features", \.features, "the skeleton layout, frame rate and feature cache",
                     reading: FeatureConfiguration.init(readingSettingsOf:)),
            .section("dataset", \.dataset, "the training, validation and test data"),
            .section("windows", \.windows, "how sequences are cut into windows: window size = action duration × frame rate (Create ML)"),
            Setting("augmentations", \.augmentation.definitions, AugmentationConfiguration.definitionsKind,
                    "named pipelines, each a list of steps, `{ mine: [{ kind: \"rotation\", degrees: 5 }] }`, or an extension of a "
                        + "named one, `{ noFlip: { extends: \"full\", drop: [\"flip\"] } }` (`drop`, `set`, `append`; below)")
                .encoded { !$0.augmentation.definitions.isEmpty },
            Setting("augmentation", \.augmentation.pipeline, .nonEmptyString,
                    "training-window augmentation pipeline: "
                        + AugmentationConfiguration.builtInNames.map { "`\($0)`" }.joined(separator: ", ")
                        + ", or one defined under `augmentations`"),
            .external("model", \.model, type: "object", "the network: `kind` and the settings of that kind (below)"),
            .section("training", \.training, "the optimizer, schedule, seeds and checkpoints", reading: TrainingConfiguration.init(reading:)),
            .section("evaluation", \.evaluation, "how predictions are scored", reading: EvaluationConfiguration.init(readingSettingsOf:)),
            .section("output", \.output, "where runs write their outputs", reading: OutputConfiguration.init(readingSettingsOf:)),
        ]
    }

    /// An experiment name.
    private static var nameKind: SettingKind<String> {
        SettingKind(
            type: "string", bounds: "\(nameLengths.lowerBound) to \(nameLengths.upperBound) characters of `A-Z a-z 0-9 . _ -`",
            describe: { JSONStringEscaping.quoted($0) }, read: name(from:))
    }

    /// Reads the top-level manifest object, then the sections whose defaults depend on
    /// `features` (dataset and windows: the frame rate; augmentation and model: the layout),
    /// then the checks across sections. `model.kind` names a family of `registry`.
    init(reading object: ManifestObjectReader, registry: ModelRegistry) {
        let reading = Self.read(object)
        var configuration = reading.value
        let features = configuration.features
        let dataset = reading.section(\.dataset) { DatasetConfiguration(reading: $0, defaultFrameRate: features.frameRate) }
        let windows = reading.section(\.windows) { WindowConfiguration(reading: $0, defaultFrameRate: features.frameRate) }
        if reading.outcome(\.augmentation.pipeline) != .invalid {
            // Invalid definitions have been reported; a pipeline they define is not unknown as well.
            let definitionsAreValid = reading.outcome(\.augmentation.definitions) != .invalid
            let pipeline = configuration.augmentation.pipeline
            if definitionsAreValid || AugmentationConfiguration.builtInNames.contains(pipeline) {
                configuration.augmentation.resolveSteps(
                    for: features.layout, definitionsNode: reading.node(\.augmentation.definitions),
                    reportingAt: reading.node(\.augmentation.pipeline) ?? object.node)
            }
        }
        let model = reading.section(\.model) { ModelConfiguration(reading: $0, layout: features.layout, registry: registry) }
        if configuration.training.earlyStopping != nil, dataset?.validation.strategy == ValidationConfiguration.Strategy.none {
            reading.node(\.training)?.report(
                "contradictory values: \(reading.path(\.training).appending(key: TrainingConfiguration.key(\.earlyStopping))) "
                    + "monitors the validation set, but "
                    + "\(reading.path(\.dataset).appending(key: DatasetConfiguration.key(\.validation)).appending(key: ValidationConfiguration.key(\.strategy))) "
                    + "is '\(ValidationConfiguration.Strategy.none.rawValue)'")
        }
        _ = object.member("sweep")  // read by SweepPlan
        _ = object.member("launcher")  // read by SweepPlan
        Self.checkPoseSources(dataset, layout: features.layout, features: reading.node(\.features))
        // A section that is not an object has been reported; its default only keeps the
        // configuration whole until the manifest error is thrown.
        configuration.dataset = dataset ?? DatasetConfiguration(sources: [])
        configuration.windows = windows ?? WindowConfiguration(size: 1, frameRate: features.frameRate)
        configuration.model = model ?? ModelConfiguration()
        // Sizes that failed their own checks are reported already and would only repeat here.
        if model != nil, windows != nil, reading.outcome(\.training) != .invalid {
            let batchKey = TrainingConfiguration.key(\.batchSize)
            let batchNode = reading.node(\.training).flatMap { training in
                training.value.objectMembers?.first { $0.key == batchKey }.map {
                    training.child($0.value, at: training.path.appending(key: batchKey))
                }
            }
            configuration.checkTrainingMemory(model: reading.node(\.model) ?? object.node, batch: batchNode)
        }
        self = configuration
    }

    /// Reports a layout other than vision18 when a source produces body pose (videos, OpenPose,
    /// Kinetics-skeleton), whose keypoints are always Vision's 18 joints.
    private static func checkPoseSources(_ dataset: DatasetConfiguration?, layout: SkeletonLayout, features: ManifestNode?) {
        guard layout.name != SkeletonLayout.vision18.name, let dataset, let features else { return }
        let sources = dataset.sources + dataset.validation.sources + (dataset.test?.sources ?? [])
        let formats = Set(sources.map(\.format).filter(\.producesVision18).map(\.rawValue)).sorted()
        guard !formats.isEmpty else { return }
        features.report(
            "\(FeatureConfiguration.key(\.layout)): '\(layout.name)' cannot hold the keypoints of \(formats.map { "'\($0)'" }.joined(separator: ", ")) sources, "
                + "which are body pose in the 'vision18' layout; use layout 'vision18'")
    }

    /// Reads a name of ``nameLengths`` characters from ``nameCharacters``.
    private static func name(from node: ManifestNode) -> String? {
        guard let name = node.string() else { return nil }
        guard nameLengths.contains(name.unicodeScalars.count), name.unicodeScalars.allSatisfy(nameCharacters.contains) else {
            node.report(
                "value out of range: expected \(nameLengths.lowerBound) to \(nameLengths.upperBound) characters of A-Z, a-z, 0-9, "
                    + "'.', '_' and '-', found '\(EchoedText.shortened(name))'")
            return nil
        }
        return name
    }
}

extension ExperimentConfiguration: Codable {
    /// Manifest form: every section in its own manifest form, the augmentation as the pipeline's
    /// name plus the manifest's own definitions.
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }

    /// Reads the manifest form back, resolving the augmentation pipeline for the layout.
    ///
    /// - Throws: `DecodingError` for a value of the wrong type, an augmentation definition that
    ///   does not resolve, or an augmentation pipeline that is neither defined nor built in.
    public init(from decoder: Decoder) throws {
        try self.init(decodingSettingsFrom: decoder)
        let (resolved, problems) = AugmentationConfiguration.resolve(augmentation.definitions, for: features.layout)
        if let problem = problems.first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [SettingCodingKey(Self.key(\.augmentation.definitions)), SettingCodingKey(problem.definition)],
                debugDescription: problem.description))
        }
        augmentation.definitions = resolved.mapValues(AugmentationDefinition.steps)
        guard let steps = resolved[augmentation.pipeline]
            ?? AugmentationConfiguration.builtIn(augmentation.pipeline, for: features.layout)
        else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [SettingCodingKey(Self.key(\.augmentation.pipeline))],
                debugDescription: "unknown augmentation pipeline '\(augmentation.pipeline)'"))
        }
        augmentation.steps = steps
    }
}
