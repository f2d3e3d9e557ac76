/// Errors of training that the manifest validation cannot see: class weights, validation windows, checkpoints.
public enum TrainingError: Error, CustomStringConvertible, Equatable {
    /// `training.classWeights` does not fit the data.
    case invalidClassWeights(String)
    /// Early stopping or best-weight restoring needs validation windows, and there are none.
    case missingValidation(reason: String)
    /// A checkpoint to resume from does not belong to this run or cannot be restored.
    case incompatibleCheckpoint(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidClassWeights(message):
            return message
        case let .missingValidation(reason):
            return "no validation windows: \(reason)"
        case let .incompatibleCheckpoint(path, reason):
            return "\(path): cannot resume from this checkpoint: \(reason)"
        }
    }
}
