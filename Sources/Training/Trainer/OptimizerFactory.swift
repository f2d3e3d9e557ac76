import Manifest
import NeuralNetwork

/// Builds the optimizer a manifest's `training` section names.
enum OptimizerFactory {
    /// A fresh optimizer with PyTorch's semantics for the chosen algorithm.
    static func make(_ settings: TrainingConfiguration) -> any Optimizer {
        let learningRate = Float(settings.learningRate)
        let weightDecay = Float(settings.weightDecay)
        switch settings.optimizer {
        case .adam:
            return Adam(learningRate: learningRate, weightDecay: weightDecay)
        case .adamw:
            return AdamW(learningRate: learningRate, weightDecay: weightDecay)
        case .sgd:
            return SGD(learningRate: learningRate, momentum: Float(settings.momentum), weightDecay: weightDecay,
                       nesterov: settings.nesterov && settings.momentum > 0)
        }
    }
}
