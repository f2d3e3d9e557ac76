/// Where a training run's loss stopped being a finite number, ending the run at once.
///
/// A learning rate, weight decay or class weight too large for the data makes the cross-entropy
/// overflow to infinity or NaN within a few steps; every later step only spreads the NaN through
/// the weights. The trainer stops at the first non-finite loss, and the trial is recorded as
/// diverged (`complete.json`, the leaderboard and `summary.md` show the epoch and the value)
/// instead of being scored.
public struct Divergence: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The 1-based epoch in which the loss became non-finite.
    public var epoch: Int
    /// The 0-based mini-batch of that epoch, or nil if the validation loss diverged after it.
    public var batch: Int?
    /// The split whose loss diverged: `train` (a mini-batch) or `validation`.
    public var split: String
    /// The non-finite loss: NaN or ±infinity. Written as a string in JSON (`"nan"`, `"inf"`,
    /// `"-inf"`), which has no number for these.
    public var loss: Double

    enum CodingKeys: String, CodingKey {
        case epoch, batch, split, loss
    }

    /// Creates a record of a divergence.
    public init(epoch: Int, batch: Int?, split: String, loss: Double) {
        self.epoch = epoch
        self.batch = batch
        self.split = split
        self.loss = loss
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try container.decode(Int.self, forKey: .epoch)
        batch = try container.decodeIfPresent(Int.self, forKey: .batch)
        split = try container.decode(String.self, forKey: .split)
        let text = try container.decode(String.self, forKey: .loss)
        guard let loss = Double(text) else {
            throw DecodingError.dataCorruptedError(forKey: .loss, in: container, debugDescription: "expected nan, inf or -inf, found '\(text)'")
        }
        self.loss = loss
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(epoch, forKey: .epoch)
        try container.encodeIfPresent(batch, forKey: .batch)
        try container.encode(split, forKey: .split)
        try container.encode(lossText, forKey: .loss)
    }

    /// Equal when every field is, NaN losses equal to each other.
    public static func == (lhs: Divergence, rhs: Divergence) -> Bool {
        (lhs.epoch, lhs.batch, lhs.split) == (rhs.epoch, rhs.batch, rhs.split)
            && (lhs.loss == rhs.loss || (lhs.loss.isNaN && rhs.loss.isNaN))
    }

    /// The loss as written: `nan` (whatever the sign bit), `inf` or `-inf`.
    public var lossText: String { loss.isNaN ? "nan" : "\(loss)" }

    /// One line for logs and reports: `loss nan in epoch 3, batch 2 (train)`.
    public var description: String {
        "loss \(lossText) in epoch \(epoch)" + (batch.map { ", batch \($0)" } ?? "") + " (\(split))"
    }
}
