import NeuralNetwork

/// Builds the classifier a manifest's `model` section names.
enum ModelFactory {
    /// A freshly initialized model.
    /// - Parameters:
    ///   - configuration: The manifest's `model` section.
    ///   - inputChannels: Values per frame, `C * J`.
    ///   - classCount: Number of classes.
    ///   - generator: The initialization stream; the model's weights depend only on it.
    /// - Throws: `TemporalConvolutionalNetwork.InvalidConfiguration` for settings the manifest
    ///   validation let through but the model rejects (fewer than two classes).
    static func make(
        _ configuration: ModelConfiguration, inputChannels: Int, classCount: Int, using generator: inout SeededGenerator
    ) throws -> any Classifier {
        switch configuration.kind {
        case .tcn:
            return try TemporalConvolutionalNetwork(
                configuration: .init(
                    inputChannels: inputChannels, classCount: classCount, channels: configuration.channels,
                    kernelSizes: configuration.kernelSizes, dropout: Float(configuration.dropout)),
                using: &generator)
        }
    }
}

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
            return SGD(learningRate: learningRate, momentum: Float(settings.momentum), weightDecay: weightDecay)
        }
    }
}
