import Foundation
import Manifest
import ModelExport
import NeuralNetwork
import Reports
import Sweeps
import Training

/// Everything a trial folder holds, read and cross-checked: configuration, metrics,
/// provenance and the checkpoint, from which the trained model can be rebuilt.
public struct TrialArtifacts {
    /// Where the files came from.
    public var folder: TrialFolder
    /// The configuration and weights, from which the model is rebuilt.
    public var trained: TrainedModel
    /// The trial's scores.
    public var metrics: TrialMetrics
    /// Software, machine and data checksums of the run.
    public var provenance: Provenance

    /// The trial's seed.
    public var seed: Int { trained.seed }
    /// The resolved configuration the trial ran with.
    public var configuration: ExperimentConfiguration { trained.configuration }
    /// The trained weights and their metadata.
    public var checkpoint: Checkpoint { trained.checkpoint }
    /// Class names in the order of the model's outputs (`labels` attribute of `weights.h5`).
    public var labels: [String] { trained.labels }
    /// The shape of one input window, `[T, C, J]`.
    public var window: KeypointWindowShape { trained.window }

    /// Reads every required file of `folder`.
    ///
    /// - Throws: ``ExportError`` naming the missing, unreadable or inconsistent file;
    ///   `HDF5Error` or `CheckpointError` for a damaged `weights.h5`.
    public init(folder: TrialFolder) throws {
        self.folder = folder
        trained = try TrainedModel(folder: folder.url)
        metrics = try folder.decodeJSON(TrialMetrics.self, from: "metrics.json")
        provenance = try folder.decodeJSON(Provenance.self, from: Provenance.fileName)
    }

    /// The trained model: the configuration's architecture with the checkpoint's weights.
    ///
    /// - Throws: ``ExportError/inconsistentTrial(path:reason:)`` when the weights do not fit.
    public func makeModel() throws -> any Classifier { try trained.makeModel() }
}
