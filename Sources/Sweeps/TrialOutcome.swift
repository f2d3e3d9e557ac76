import Reports
import Training

/// What a finished trial is ranked by, written last into its folder as the completion marker
/// `complete.json`. Its content depends only on the trial's configuration and seed (timings go
/// to `timing.json`), so resumed and parallel sweeps produce identical markers.
public struct TrialOutcome: Sendable, Equatable, Codable {
    /// Headline scores of one split.
    public struct SplitScores: Sendable, Equatable, Codable {
        public var accuracy: Double
        public var macroF1: Double
        public var loss: Double?
        public var sequenceAccuracy: Double
        public var sequenceMacroF1: Double
        public var windows: Int
        public var sequences: Int

        enum CodingKeys: String, CodingKey {
            case accuracy, macroF1 = "macro_f1", loss, sequenceAccuracy = "sequence_accuracy"
            case sequenceMacroF1 = "sequence_macro_f1", windows, sequences
        }
    }

    /// The trial's id (its folder name).
    public var id: String
    /// Its index in the sweep.
    public var index: Int
    /// Its grid cell.
    public var cell: Int
    /// Its seed.
    public var seed: Int
    /// The cell's swept values.
    public var values: [Trial.SweptValue]
    /// Scores per split name.
    public var splits: [String: SplitScores]
    /// Epoch with the highest validation accuracy (earliest on ties); nil without validation data.
    public var bestEpoch: Int?
    /// Epochs trained (fewer than `training.epochs` after early stopping).
    public var epochs: Int
    /// The epoch whose weights were saved and scored: the last, or the best validation epoch with
    /// `training.weights: "bestValidation"` (or `restoreBestWeights`); nil in markers written
    /// before it was recorded.
    public var savedEpoch: Int?
    /// Where the loss became non-finite and training stopped, or nil for a trial that trained
    /// to the end. A diverged trial is not scored: ``splits`` is empty, ``epochs`` counts the
    /// finite epochs before it.
    public var diverged: Divergence?

    enum CodingKeys: String, CodingKey {
        case id, index, cell, seed, values, splits, bestEpoch = "best_epoch", epochs, savedEpoch = "saved_epoch", diverged
    }

    init(trial: Trial, report: RunReport, diverged: Divergence? = nil) {
        self.diverged = diverged
        id = trial.id
        index = trial.index
        cell = trial.cell
        seed = trial.seed
        values = trial.values
        splits = report.metrics.mapValues { metrics in
            SplitScores(
                accuracy: metrics.window.accuracy, macroF1: metrics.window.macroF1, loss: metrics.window.loss,
                sequenceAccuracy: metrics.sequence.accuracy, sequenceMacroF1: metrics.sequence.macroF1,
                windows: metrics.window.count, sequences: metrics.sequence.count)
        }
        bestEpoch = report.bestValidationEpoch?.epoch
        epochs = report.history.count
        savedEpoch = report.savedEpoch ?? report.history.last?.epoch
    }
}

/// Wall-clock times of a trial, kept apart from its deterministic results (`timing.json`).
public struct TrialTiming: Sendable, Equatable, Codable {
    /// Seconds spent in the training loop; for a trial resumed from a checkpoint, with the
    /// seconds the killed run had spent on the epochs before it.
    public var trainingSeconds: Double
    /// Seconds from the trial's start to its folder being in place (data, training, evaluation,
    /// writing), with the same earlier training seconds for a resumed trial.
    public var totalSeconds: Double

    enum CodingKeys: String, CodingKey {
        case trainingSeconds = "training_seconds", totalSeconds = "total_seconds"
    }
}
