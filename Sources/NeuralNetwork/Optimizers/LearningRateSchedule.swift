import Foundation

/// A learning rate as a function of the epoch: constant, step decay or cosine annealing, with an
/// optional linear warm-up in front.
///
/// The schedule is applied **per epoch**: every step of epoch `e` (0-based) uses
/// ``learningRate(epoch:)``. Because it is a pure function of the epoch, the "position" of the
/// schedule is the epoch number itself, so a run resumed at an epoch boundary uses exactly the
/// rates an uninterrupted run uses.
///
/// With base rate `η`, `W` warm-up epochs and `E` epochs in the run, epoch `e` gets
///
/// ```
/// warm-up (e < W):   η · (e + 1) / W                      (PyTorch's LinearLR, start_factor 1/W)
/// then t = e − W, over the remaining T = E − W epochs:
///   constant:        η
///   step:            η · γ^⌊t / stepEpochs⌋              (PyTorch's StepLR)
///   cosine:          η_min + (η − η_min) · (1 + cos(π · t / T)) / 2
///                                                         (PyTorch's CosineAnnealingLR, T_max = T)
/// ```
///
/// This is PyTorch's `SequentialLR([LinearLR, main], milestones=[W])` stepped once per epoch
/// (`torch.optim.lr_scheduler`; the cosine form is the closed form of Loshchilov & Hutter,
/// "SGDR: Stochastic Gradient Descent with Warm Restarts", ICLR 2017, without restarts).
public struct LearningRateSchedule: Sendable, Hashable, Codable {
    /// The shape of the schedule after the warm-up.
    public enum Kind: Sendable, Hashable, Codable {
        /// The base rate throughout.
        case constant
        /// The rate is multiplied by `gamma` every `everyEpochs` epochs.
        case step(everyEpochs: Int, gamma: Double)
        /// Half a cosine from the base rate down to `minimum` over the epochs after the warm-up.
        case cosine(minimum: Double)
    }

    /// The base learning rate `η`, greater than 0.
    public var baseLearningRate: Double
    /// The shape after the warm-up.
    public var kind: Kind
    /// The number of linear warm-up epochs `W`, 0 for none.
    public var warmupEpochs: Int
    /// The number of epochs of the whole run `E` (cosine annealing ends at the last one).
    public var totalEpochs: Int

    /// Creates a schedule.
    ///
    /// - Parameters:
    ///   - baseLearningRate: `η`.
    ///   - kind: The shape after the warm-up (default constant).
    ///   - warmupEpochs: `W` (default 0).
    ///   - totalEpochs: `E`, the run's epochs.
    public init(baseLearningRate: Double, kind: Kind = .constant, warmupEpochs: Int = 0, totalEpochs: Int) {
        self.baseLearningRate = baseLearningRate
        self.kind = kind
        self.warmupEpochs = warmupEpochs
        self.totalEpochs = totalEpochs
    }

    /// The learning rate of every step of an epoch.
    ///
    /// - Parameter epoch: The 0-based epoch index (epoch 1 of a report is index 0).
    /// - Returns: The rate, computed in `Double`.
    public func learningRate(epoch: Int) -> Double {
        if epoch < warmupEpochs {
            return baseLearningRate * Double(epoch + 1) / Double(warmupEpochs)
        }
        let t = epoch - warmupEpochs
        switch kind {
        case .constant:
            return baseLearningRate
        case let .step(everyEpochs, gamma):
            return baseLearningRate * pow(gamma, Double(t / max(everyEpochs, 1)))
        case let .cosine(minimum):
            let period = max(totalEpochs - warmupEpochs, 1)
            return minimum + (baseLearningRate - minimum) * (1 + cos(Double.pi * Double(t) / Double(period))) / 2
        }
    }
}
