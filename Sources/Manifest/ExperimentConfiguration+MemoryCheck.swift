import Foundation
import ManifestSchema
import Models
import NeuralNetwork

extension ExperimentConfiguration {
    /// Reports a model whose training the machine cannot hold: a size that overflows a 64-bit
    /// integer (`hiddenUnits` of 2^62), or an estimated need (``TrainingMemoryEstimate``, from the
    /// model's sizes, the window size and `training.batchSize`) above `memoryLimit` bytes, so
    /// that `validate` rejects what `run` would abort on while allocating, or be killed for by
    /// the kernel in a Slurm job's memory limit.
    ///
    /// - Parameters:
    ///   - modelNode: Where a model too large is reported: the `model` section, or the manifest.
    ///   - batchNode: Where a model whose batches are too large is reported: `training.batchSize`
    ///     if stated, else `modelNode`.
    ///   - memoryLimit: The bytes this process may use (`ProcessMemory.availableBytes()`: the
    ///     machine's memory, or its cgroup's limit, such as Slurm's `--mem`, when lower).
    func checkTrainingMemory(
        model modelNode: ManifestNode, batch batchNode: ManifestNode?, memoryLimit: UInt64 = ProcessMemory.availableBytes()
    ) {
        let batchSize = training.batchSize
        guard let estimate = model.memoryEstimate(layout: features.layout, windowSize: windows.size, classCount: 2),
              let bytes = estimate.trainingBytes(batchSize: batchSize) else {
            modelNode.report(
                "value out of range: the memory of model '\(model.kind)' (\(model.settingsDescription)) on windows of "
                    + "\(windows.size) frames in batches of \(batchSize) overflows a 64-bit integer; make the model or "
                    + "training.batchSize smaller")
            return
        }
        guard UInt64(bytes) > memoryLimit else { return }
        let modelAlone = estimate.trainingBytes(batchSize: 1).map { UInt64($0) > memoryLimit } ?? true
        (modelAlone ? modelNode : batchNode ?? modelNode).report(
            "value out of range: training model '\(model.kind)' needs about \(Self.gigabytes(bytes)) "
                + "(\(estimate.parameters) parameters × \(TrainingMemoryEstimate.copiesPerParameter) copies + "
                + "\(estimate.activationsPerWindow) activations per window of \(windows.size) frames × batch \(batchSize) × "
                + "\(TrainingMemoryEstimate.copiesPerActivation) copies, \(TrainingMemoryEstimate.bytesPerValue) bytes each), "
                + "more than the \(Self.gigabytes(Int(clamping: memoryLimit))) this process may use (the machine's memory, or its "
                + "cgroup's limit, such as Slurm's --mem, when lower); make the model, "
                + "windows.size or training.batchSize smaller")
    }

    /// Bytes in gigabytes (10^9) with three significant digits: `12.3 GB`.
    private static func gigabytes(_ bytes: Int) -> String {
        String(format: "%.3g GB", Double(bytes) / 1e9)
    }
}
