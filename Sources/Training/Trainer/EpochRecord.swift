/// Loss and accuracy after one epoch of training: one row of `curves.csv`.
public struct EpochRecord: Sendable, Equatable, Codable {
    /// 1-based epoch number.
    public var epoch: Int
    /// Mean softmax cross-entropy over the epoch's training batches (in training mode, as the
    /// weights changed during the epoch), weighted by batch size.
    public var trainLoss: Double
    /// Fraction of training windows classified correctly during the epoch's batches.
    public var trainAccuracy: Double
    /// Mean cross-entropy on the validation windows after the epoch (evaluation mode); nil
    /// without a validation set.
    public var validationLoss: Double?
    /// Validation window accuracy after the epoch; nil without a validation set.
    public var validationAccuracy: Double?

    public init(epoch: Int, trainLoss: Double, trainAccuracy: Double, validationLoss: Double? = nil, validationAccuracy: Double? = nil) {
        self.epoch = epoch
        self.trainLoss = trainLoss
        self.trainAccuracy = trainAccuracy
        self.validationLoss = validationLoss
        self.validationAccuracy = validationAccuracy
    }
}
