import ManifestSchema
import NeuralNetwork
import Randomness

/// The `mlp` family: a multilayer perceptron over the whole flattened window with one hidden
/// layer (``MultilayerPerceptron``), a baseline without temporal or skeletal structure.
public struct MultilayerPerceptronFamily: ModelFamily {
    /// The `mlp` settings.
    public struct Settings: ModelSettings {
        /// The width of the hidden layer.
        public var hiddenUnits: Int

        /// Creates `mlp` settings.
        public init(hiddenUnits: Int) {
            self.hiddenUnits = hiddenUnits
        }

        /// The defaults: 256 hidden units.
        package static var defaults: Settings { Settings(hiddenUnits: 256) }

        package static var settings: [Setting<Settings>] {
            [Setting("hiddenUnits", \.hiddenUnits, .integer(.atLeast(1)), "width of the hidden layer")]
        }

        public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    public init() {}

    public var name: String { "mlp" }
    public var summary: String { "multilayer perceptron over the flattened window, one hidden layer (a baseline)" }
    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try MultilayerPerceptron(
            configuration: .init(
                inputChannels: input.layout.channelCount * input.layout.jointCount, frames: input.windowSize,
                hiddenUnits: settings.hiddenUnits, classCount: input.classCount, dropout: Float(input.dropout),
                keypointNormalization: input.keypointNormalization, stream: input.streamConfiguration),
            using: &generator)
    }

    /// Hidden `[C·J·T → H]` and classifier `[H → classes]` layers; activations: the input, the
    /// hidden layer before and after ReLU, and the logits.
    public func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        TrainingMemoryEstimate.checked { count in
            let inputs = try count.product(input.layout.channelCount, input.layout.jointCount, input.windowSize)
            let hidden = settings.hiddenUnits
            return TrainingMemoryEstimate(
                parameters: try count.sum(try count.product(inputs, hidden), hidden, try count.product(hidden, input.classCount), input.classCount),
                activationsPerWindow: try count.sum(inputs, try count.product(2, hidden), input.classCount))
        }
    }

    public func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        "MLP over the flattened window, " + settingsDescription(settings)
    }

    public func settingsDescription(_ settings: Settings) -> String {
        "\(settings.hiddenUnits) hidden unit\(settings.hiddenUnits == 1 ? "" : "s")"
    }
}

extension ModelConfiguration {
    /// An `mlp` model.
    ///
    /// - Parameters:
    ///   - hiddenUnits: The width of the hidden layer.
    ///   - dropout: Dropout after the hidden layer, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public static func mlp(hiddenUnits: Int = 256, dropout: Double = 0, normalizeInput: Bool = false) -> ModelConfiguration {
        ModelConfiguration(MultilayerPerceptronFamily(), .init(hiddenUnits: hiddenUnits), dropout: dropout, normalizeInput: normalizeInput)
    }
}
