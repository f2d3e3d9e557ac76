/// Where a run is between two epochs, beside the tensors of a checkpoint: what a resumed run
/// needs besides the weights and the optimizer state.
///
/// The learning-rate schedule, the shuffling, the augmentation and the dropout masks are
/// functions of (seed, epoch, index), so the epoch number is their whole position.
struct TrainingProgress: Codable, Equatable {
    /// The number of finished epochs.
    var epoch: Int
    /// The records of the finished epochs.
    var history: [EpochRecord]
    /// The early-stopping tracker, when the run stops early or keeps the best validation epoch's
    /// weights (then ``EarlyStopping/bestEpochTracking``, which never stops).
    var earlyStopping: EarlyStopping?
    /// Seconds spent training the finished epochs, across every process that trained them (nil
    /// in checkpoints written before it was recorded).
    var trainingSeconds: Double?

    /// The root attribute of `checkpoint.h5` that holds this value as JSON.
    static let metadataKey = "training_progress"
}
