import NeuralNetwork

/// The root attributes of a trial's `weights.h5` (``TrialRunner`` writes them; ``TrialFolderCheck``,
/// the Export module's `TrainedModel` and through it `predict` read them): what an app needs to
/// feed the model, and which trial it is. All are strings; list values are JSON arrays.
///
/// The trainer adds its own keys to the checkpoints it writes (the epoch, the training progress);
/// these are the ones a finished trial's weights carry for its readers.
public enum WeightsMetadataKey: String, CaseIterable, Sendable {
    /// The model family (`model.kind`): `stgcn`, `tcn`, ….
    case model
    /// Class names in the order of the model's outputs, a JSON array of at least two.
    case labels
    /// Frames per window, T (`windows.size`).
    case windowSize = "window_size"
    /// Frames per second the windows are sampled at (`windows.frameRate`).
    case frameRate = "frame_rate"
    /// The keypoint layout's name (`features.layout`).
    case layout
    /// The layout's joint names, J of them, a JSON array.
    case joints
    /// The channels of each joint, C of them, a JSON array.
    case channels
    /// One input window's shape `[T, C, J]`.
    case inputShape = "input_shape"
    /// The trial's seed.
    case seed
    /// The trial's id.
    case trial
    /// The ActionLab version that trained it.
    case actionlabVersion = "actionlab_version"
    /// The epoch whose weights these are (1-based; the best validation epoch when the run
    /// restores it, else the last).
    case savedEpoch = "saved_epoch"
}

extension Checkpoint {
    /// The value of one of a trial's weights attributes, or nil when the file lacks it.
    public subscript(key: WeightsMetadataKey) -> String? { metadata[key.rawValue] }
}
