import Foundation
import Manifest
import ModelExport
import NeuralNetwork
import Randomness
import Sweeps
import Training

/// A trained model as a folder stores it: `config.json` (seed and resolved configuration) and
/// `weights.h5` (the checkpoint, with the labels), read and cross-checked.
///
/// Both a trial folder and an export folder (which holds copies of the two files) hold one, so
/// `actionlab predict` runs either the same way.
public struct TrainedModel {
    /// `config.json`: the run's seed and resolved configuration.
    struct RunConfigurationFile: Decodable {
        var seed: Int
        /// The trial's id (absent from files written before it was recorded).
        var trial: String?
        var configuration: ExperimentConfiguration
    }

    /// The folder the files were read from.
    public var folder: URL
    /// The trial's seed.
    public var seed: Int
    /// The resolved configuration the trial ran with.
    public var configuration: ExperimentConfiguration
    /// The trained weights and their metadata.
    public var checkpoint: Checkpoint
    /// Class names in the order of the model's outputs (`labels` attribute of `weights.h5`).
    public var labels: [String]

    /// Reads `config.json` and `weights.h5` of `folder`.
    ///
    /// - Throws: ``ExportError`` naming the missing, unreadable or inconsistent file (also when
    ///   `weights.h5` names another trial or seed than `config.json`, or a
    ///   model tensor of `weights.h5` holds a value that is not finite: overwritten bytes, or a
    ///   diverged training, never a model to run); `HDF5Error` or `CheckpointError` for a damaged
    ///   `weights.h5`.
    public init(folder url: URL) throws {
        folder = url
        let files = TrialFolder(url: url, id: url.lastPathComponent)
        let weights = files.file("weights.h5")
        guard FileManager.default.fileExists(atPath: weights.path) else {
            throw ExportError.missingFile(path: weights.path, purpose: "the trained weights and the labels")
        }
        let run = try files.decodeJSON(RunConfigurationFile.self, from: "config.json")
        seed = run.seed
        configuration = run.configuration
        checkpoint = try Checkpoint(contentsOf: weights)
        for (name, tensor) in checkpoint.model {
            let nonFinite = tensor.values.lazy.filter { !$0.isFinite }.count
            if nonFinite > 0 {
                throw ExportError.inconsistentTrial(
                    path: weights.path,
                    reason: "model tensor '\(name)' holds \(nonFinite) of \(tensor.values.count) values that are not finite "
                        + "(NaN or infinity): the file is damaged, or its training diverged")
            }
        }
        guard let labelsText = checkpoint[.labels],
              let labels = try? JSONDecoder().decode([String].self, from: Data(labelsText.utf8)), labels.count >= 2
        else {
            throw ExportError.inconsistentTrial(
                path: weights.path, reason: "the root attribute 'labels' must be a JSON array of at least two class names")
        }
        self.labels = labels
        // The two files of one trial: weights copied in from another trial (another seed) would run
        // under this configuration's name.
        let weightsTrial = checkpoint[.trial], weightsSeed = checkpoint[.seed]
        if let weightsTrial, let trial = run.trial, weightsTrial != trial {
            throw ExportError.inconsistentTrial(
                path: weights.path, reason: "it belongs to trial \(weightsTrial) (seed \(weightsSeed ?? "?")), but config.json to "
                    + "trial \(trial) (seed \(run.seed)); copy the two files of one trial together")
        }
        if let weightsSeed, weightsSeed != "\(run.seed)" {
            throw ExportError.inconsistentTrial(
                path: weights.path, reason: "it was trained with seed \(weightsSeed), but config.json says seed \(run.seed)")
        }
        if let shape = checkpoint[.inputShape], shape != "\(window)" {
            throw ExportError.inconsistentTrial(
                path: weights.path, reason: "input_shape \(shape) differs from config.json's window \(window)")
        }
        // What else the weights record of the configuration they were trained with: a config.json
        // edited to another frame rate resampled every input to it without a word.
        let recorded: [(key: WeightsMetadataKey, value: String, setting: String)] = [
            (.frameRate, "\(configuration.windows.frameRate)", "windows.frameRate"),
            (.layout, configuration.features.layout.name, "features.layout"),
            (.model, configuration.model.kind, "model.kind"),
        ]
        for (key, value, setting) in recorded {
            if let stored = checkpoint[key], stored != value {
                throw ExportError.inconsistentTrial(
                    path: weights.path, reason: "\(key.rawValue) \(stored) differs from config.json's \(setting) \(value)")
            }
        }
    }

    /// The shape of one input window, `[T, C, J]`, from the configuration's window size and layout.
    public var window: KeypointWindowShape {
        KeypointWindowShape(
            windowSize: configuration.windows.size, channelCount: configuration.features.layout.channelCount,
            jointCount: configuration.features.layout.jointCount)
    }

    /// The trained model: the configuration's architecture with the checkpoint's weights.
    ///
    /// - Returns: A classifier whose evaluation-mode outputs are those of the trial's model.
    /// - Throws: ``ExportError/inconsistentTrial(path:reason:)`` when the weights do not fit
    ///   the architecture `config.json` describes.
    public func makeModel() throws -> any Classifier {
        var unused = SeededGenerator(seed: UInt64(truncatingIfNeeded: seed), purpose: "initialization")
        let model: any Classifier
        do {
            model = try configuration.model.makeClassifier(
                layout: configuration.features.layout, windowSize: configuration.windows.size, classCount: labels.count,
                using: &unused)
            try model.load(stateDictionary: checkpoint.model)
        } catch {
            throw ExportError.inconsistentTrial(
                path: folder.appendingPathComponent("weights.h5").path, reason: "the weights do not fit config.json's model: \(error)")
        }
        return model
    }
}
