import Augmentation
import Foundation
import Models
import NeuralNetwork
import Pose

// Codable in manifest form: `resolved.json` (and the configurations inside `sweep.json`) read
// back as manifests and decode to equal configurations. Paths are plain absolute paths, joint
// pairs `[a, b]`, augmentation a pipeline name plus the manifest's own definitions, and settings
// that only apply in another mode (SGD momentum, the automatic split's fraction, validation
// files) are written only in that mode, as a manifest would state them.

/// Decodes a path (or, leniently, a `file://` URL) written where a manifest takes a path.
private func decodePath<K: CodingKey>(_ container: KeyedDecodingContainer<K>, forKey key: K) throws -> URL {
    let text = try container.decode(String.self, forKey: key)
    if text.hasPrefix("file://"), let url = URL(string: text) { return url }
    return URL(fileURLWithPath: text, isDirectory: false)
}

extension DataSource {
    private enum CodingKeys: String, CodingKey { case format, path, label, frameRate, imageSize }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(path.path, forKey: .path)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encode(frameRate, forKey: .frameRate)
        try container.encodeIfPresent(imageSize.map { [$0.width, $0.height] }, forKey: .imageSize)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let size = try container.decodeIfPresent([Int].self, forKey: .imageSize)
        self.init(
            format: try container.decode(Format.self, forKey: .format), path: try decodePath(container, forKey: .path),
            label: try container.decodeIfPresent(String.self, forKey: .label),
            frameRate: try container.decode(Double.self, forKey: .frameRate),
            imageSize: try size.map { size in
                guard size.count == 2 else {
                    throw DecodingError.dataCorruptedError(forKey: .imageSize, in: container, debugDescription: "expected [width, height]")
                }
                return ImageSize(width: size[0], height: size[1])
            })
    }
}

extension FeatureConfiguration {
    private enum CodingKeys: String, CodingKey { case layout, frameRate, cache, pose }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(layout, forKey: .layout)
        try container.encode(frameRate, forKey: .frameRate)
        try container.encode(cache.path, forKey: .cache)
        try container.encode(pose, forKey: .pose)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            layout: try container.decode(SkeletonLayout.self, forKey: .layout),
            frameRate: try container.decode(Double.self, forKey: .frameRate), cache: try decodePath(container, forKey: .cache),
            pose: try container.decodeIfPresent(PoseEstimationConfiguration.self, forKey: .pose) ?? .init())
    }
}

extension OutputConfiguration {
    private enum CodingKeys: String, CodingKey { case directory }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory.path, forKey: .directory)
    }

    public init(from decoder: Decoder) throws {
        self.init(directory: try decodePath(try decoder.container(keyedBy: CodingKeys.self), forKey: .directory))
    }
}

extension TrainingConfiguration {
    private enum CodingKeys: String, CodingKey {
        case epochs, batchSize, optimizer, learningRate, weightDecay, momentum, labelSmoothing, seeds, threads
        case schedule, gradientClipNorm, classWeights, earlyStopping, restoreBestWeights, checkpointEvery
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(epochs, forKey: .epochs)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(optimizer, forKey: .optimizer)
        try container.encode(learningRate, forKey: .learningRate)
        try container.encode(weightDecay, forKey: .weightDecay)
        if optimizer == .sgd { try container.encode(momentum, forKey: .momentum) }
        try container.encode(labelSmoothing, forKey: .labelSmoothing)
        try container.encode(seeds, forKey: .seeds)
        try container.encode(threads, forKey: .threads)
        try container.encode(schedule, forKey: .schedule)
        try container.encodeIfPresent(gradientClipNorm, forKey: .gradientClipNorm)
        try container.encodeIfPresent(classWeights, forKey: .classWeights)
        try container.encodeIfPresent(earlyStopping, forKey: .earlyStopping)
        if earlyStopping != nil { try container.encode(restoreBestWeights, forKey: .restoreBestWeights) }
        try container.encode(checkpointEvery, forKey: .checkpointEvery)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            epochs: try container.decode(Int.self, forKey: .epochs), batchSize: try container.decode(Int.self, forKey: .batchSize),
            optimizer: try container.decode(Optimizer.self, forKey: .optimizer),
            learningRate: try container.decode(Double.self, forKey: .learningRate),
            weightDecay: try container.decode(Double.self, forKey: .weightDecay),
            momentum: try container.decodeIfPresent(Double.self, forKey: .momentum) ?? TrainingConfiguration().momentum,
            labelSmoothing: try container.decode(Double.self, forKey: .labelSmoothing),
            seeds: try container.decode([Int].self, forKey: .seeds), threads: try container.decode(Int.self, forKey: .threads),
            schedule: try container.decodeIfPresent(ScheduleConfiguration.self, forKey: .schedule) ?? .init(),
            gradientClipNorm: try container.decodeIfPresent(Double.self, forKey: .gradientClipNorm),
            classWeights: try container.decodeIfPresent(ClassWeighting.self, forKey: .classWeights),
            earlyStopping: try container.decodeIfPresent(EarlyStoppingConfiguration.self, forKey: .earlyStopping),
            restoreBestWeights: try container.decodeIfPresent(Bool.self, forKey: .restoreBestWeights) ?? false,
            checkpointEvery: try container.decodeIfPresent(Int.self, forKey: .checkpointEvery) ?? TrainingConfiguration().checkpointEvery)
    }
}

extension ValidationConfiguration {
    private enum CodingKeys: String, CodingKey { case strategy, fraction, seed, sources }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(strategy, forKey: .strategy)
        if strategy == .automatic {
            try container.encode(fraction, forKey: .fraction)
            try container.encode(seed, forKey: .seed)
        }
        if strategy == .files { try container.encode(sources, forKey: .sources) }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ValidationConfiguration()
        self.init(
            strategy: try container.decode(Strategy.self, forKey: .strategy),
            fraction: try container.decodeIfPresent(Double.self, forKey: .fraction) ?? defaults.fraction,
            seed: try container.decodeIfPresent(Int.self, forKey: .seed) ?? defaults.seed,
            sources: try container.decodeIfPresent([DataSource].self, forKey: .sources) ?? [])
    }
}

extension ExperimentConfiguration {
    private enum CodingKeys: String, CodingKey {
        case name, description, dataset, features, windows, augmentation, augmentations, model, training, evaluation, output
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(dataset, forKey: .dataset)
        try container.encode(features, forKey: .features)
        try container.encode(windows, forKey: .windows)
        try container.encode(augmentation.pipeline, forKey: .augmentation)
        if !augmentation.definitions.isEmpty { try container.encode(augmentation.definitions, forKey: .augmentations) }
        try container.encode(model, forKey: .model)
        try container.encode(training, forKey: .training)
        try container.encode(evaluation, forKey: .evaluation)
        try container.encode(output, forKey: .output)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let features = try container.decode(FeatureConfiguration.self, forKey: .features)
        let pipeline = try container.decode(String.self, forKey: .augmentation)
        let definitions = try container.decodeIfPresent([String: [AugmentationStep]].self, forKey: .augmentations) ?? [:]
        guard let steps = definitions[pipeline] ?? AugmentationConfiguration.builtIn(pipeline, for: features.layout) else {
            throw DecodingError.dataCorruptedError(
                forKey: .augmentation, in: container, debugDescription: "unknown augmentation pipeline '\(pipeline)'")
        }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            description: try container.decode(String.self, forKey: .description),
            dataset: try container.decode(DatasetConfiguration.self, forKey: .dataset), features: features,
            windows: try container.decode(WindowConfiguration.self, forKey: .windows),
            augmentation: AugmentationConfiguration(pipeline: pipeline, steps: steps, definitions: definitions),
            model: try container.decode(ModelConfiguration.self, forKey: .model),
            training: try container.decode(TrainingConfiguration.self, forKey: .training),
            evaluation: try container.decode(EvaluationConfiguration.self, forKey: .evaluation),
            output: try container.decode(OutputConfiguration.self, forKey: .output))
    }
}
