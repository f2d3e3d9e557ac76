/// Where a training run's loss, or its weights, stopped being finite numbers, ending the run at once.
///
/// A learning rate, weight decay or class weight too large for the data makes the cross-entropy
/// overflow to infinity or NaN within a few steps; every later step only spreads the NaN through
/// the weights. A step can also overflow the weights while the loss it came from was still finite
/// (SGD at a learning rate of 1e30 on a loss of 1e30): without a later loss to show it, such a
/// model would be scored on NaN probabilities and its weights refused only at export. The trainer
/// stops at the first non-finite loss, or the first step after which a model tensor holds a value
/// that is not finite, and the trial is recorded as diverged (`complete.json`, the leaderboard and
/// `summary.md` show where and the value) instead of being scored.
public struct Divergence: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The 1-based epoch in which the loss became non-finite.
    public var epoch: Int
    /// The 0-based mini-batch of that epoch, or nil if the validation loss diverged after it.
    public var batch: Int?
    /// The split whose loss diverged: `train` (a mini-batch) or `validation`.
    public var split: String
    /// The non-finite loss: NaN or ±infinity; when ``tensor`` is set, the step's loss, which was
    /// still finite. Written as a string in JSON (`"nan"`, `"inf"`, `"-inf"`, `"1e+30"`), since
    /// JSON has no number for the non-finite ones.
    public var loss: Double
    /// The model tensor (a parameter or a buffer, by its state-dictionary name) that first held a
    /// value that is not finite after the step, when the loss was still finite; nil when the
    /// loss diverged.
    public var tensor: String?

    enum CodingKeys: String, CodingKey {
        case epoch, batch, split, loss, tensor
    }

    /// Creates a record of a divergence.
    public init(epoch: Int, batch: Int?, split: String, loss: Double, tensor: String? = nil) {
        self.epoch = epoch
        self.batch = batch
        self.split = split
        self.loss = loss
        self.tensor = tensor
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try container.decode(Int.self, forKey: .epoch)
        batch = try container.decodeIfPresent(Int.self, forKey: .batch)
        split = try container.decode(String.self, forKey: .split)
        let text = try container.decode(String.self, forKey: .loss)
        guard let loss = Double(text) else {
            throw DecodingError.dataCorruptedError(forKey: .loss, in: container, debugDescription: "expected a number, nan, inf or -inf, found '\(text)'")
        }
        self.loss = loss
        tensor = try container.decodeIfPresent(String.self, forKey: .tensor)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(epoch, forKey: .epoch)
        try container.encodeIfPresent(batch, forKey: .batch)
        try container.encode(split, forKey: .split)
        try container.encode(lossText, forKey: .loss)
        try container.encodeIfPresent(tensor, forKey: .tensor)
    }

    /// Equal when every field is, NaN losses equal to each other.
    public static func == (lhs: Divergence, rhs: Divergence) -> Bool {
        (lhs.epoch, lhs.batch, lhs.split, lhs.tensor) == (rhs.epoch, rhs.batch, rhs.split, rhs.tensor)
            && (lhs.loss == rhs.loss || (lhs.loss.isNaN && rhs.loss.isNaN))
    }

    /// The loss as written: `nan` (whatever the sign bit), `inf` or `-inf`.
    public var lossText: String { loss.isNaN ? "nan" : "\(loss)" }

    /// One line for logs and reports: `loss nan in epoch 3, batch 2 (train)`, or `weights
    /// 'classifier.weight' not finite after epoch 3, batch 2 (train, loss 1e+30)`.
    public var description: String {
        let place = "epoch \(epoch)" + (batch.map { ", batch \($0)" } ?? "")
        if let tensor { return "weights '\(tensor)' not finite after \(place) (\(split), loss \(lossText))" }
        return "loss \(lossText) in \(place) (\(split))"
    }
}
