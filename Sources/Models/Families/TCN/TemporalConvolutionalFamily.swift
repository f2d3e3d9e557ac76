import ManifestSchema
import NeuralNetwork
import Randomness

/// The `tcn` family: a temporal convolutional network, 1-D convolutions over time with the
/// joints and channels of each frame as input features (``TemporalConvolutionalNetwork``).
public struct TemporalConvolutionalFamily: ModelFamily {
    /// The `tcn` settings: one convolutional layer per entry.
    public struct Settings: ModelSettings {
        /// The number of output channels of each convolutional layer, first layer first.
        public var channels: [Int]
        /// The temporal kernel size of each layer, in frames; odd, so that padding keeps the
        /// sequence length. One per entry of ``channels``.
        public var kernelSizes: [Int]

        /// Creates `tcn` settings.
        public init(channels: [Int], kernelSizes: [Int]) {
            self.channels = channels
            self.kernelSizes = kernelSizes
        }

        /// The defaults: three layers of 64 channels with temporal kernels 7, 5 and 3.
        package static var defaults: Settings { Settings(channels: [64, 64, 64], kernelSizes: [7, 5, 3]) }

        package static var settings: [Setting<Settings>] {
            [
                Setting("channels", \.channels, .list(.integer(.atLeast(1)), minimumCount: 1),
                        "output channels of each convolution block, first block first"),
                Setting("kernelSizes", \.kernelSizes, .list(Self.kernelSize, minimumCount: 1),
                        "temporal kernel size of each block, in frames; one per entry of `channels`"),
            ]
        }

        /// An odd kernel size, so that padding keeps the sequence length.
        private static var kernelSize: SettingKind<Int> {
            SettingKind(type: "integer", bounds: "odd, ≥ 1", describe: { "\($0)" }) { node in
                guard let size = node.integer(.atLeast(1)) else { return nil }
                guard size % 2 == 1 else {
                    node.report("value out of range: expected an odd kernel size, so that padding keeps the length, found \(size)")
                    return nil
                }
                return size
            }
        }

        public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    public init() {}

    public var name: String { "tcn" }
    public var summary: String {
        "temporal convolutional network: 1-D convolutions over time, joints and channels as features (Bai et al., 2018)"
    }
    /// Reads the declared keys, then checks that there is one kernel size per layer.
    package func read(_ object: ManifestObjectReader) -> Settings {
        let reading = Settings.read(object)
        let settings = reading.value
        guard reading.outcome(\.channels) != .invalid, reading.outcome(\.kernelSizes) != .invalid,
              settings.channels.count != settings.kernelSizes.count else { return settings }
        func entries(_ count: Int) -> String { "\(count) entr\(count == 1 ? "y" : "ies")" }
        let kernelSizes = reading.outcome(\.kernelSizes) == .absent
            ? "\(reading.path(\.kernelSizes)) (default \(settings.kernelSizes))" : "\(reading.path(\.kernelSizes))"
        let message = "contradictory values: \(kernelSizes) has \(entries(settings.kernelSizes.count)) but "
            + "\(reading.path(\.channels)) has \(settings.channels.count); give one kernel size per layer"
        (reading.node(\.kernelSizes) ?? reading.node(\.channels) ?? object.node).report(message)
        return settings
    }

    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try TemporalConvolutionalNetwork(
            configuration: .init(
                inputChannels: input.layout.channelCount * input.layout.jointCount, classCount: input.classCount,
                channels: settings.channels, kernelSizes: settings.kernelSizes, dropout: Float(input.dropout),
                keypointNormalization: input.keypointNormalization, stream: input.streamConfiguration),
            using: &generator)
    }

    /// Per layer: a `[k · C_in → C_out]` convolution and its batch normalization; activations
    /// per frame: the unfolded input (`k · C_in`) and four `C_out` outputs (convolution, batch
    /// normalization, ReLU, dropout).
    public func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        TrainingMemoryEstimate.checked { count in
            var width = try count.product(input.layout.channelCount, input.layout.jointCount)
            var parameters = try count.product(4, width)
            var perFrame = width
            for (channels, kernelSize) in zip(settings.channels, settings.kernelSizes) {
                parameters = try count.sum(parameters, try count.product(kernelSize, width, channels), try count.product(5, channels))
                perFrame = try count.sum(perFrame, try count.product(kernelSize, width), try count.product(4, channels))
                width = channels
            }
            parameters = try count.sum(parameters, try count.product(width, input.classCount), input.classCount)
            return TrainingMemoryEstimate(
                parameters: parameters, activationsPerWindow: try count.sum(try count.product(perFrame, input.windowSize), input.classCount))
        }
    }

    public func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        "TCN, " + settingsDescription(settings)
    }

    public func settingsDescription(_ settings: Settings) -> String {
        "channels \(settings.channels), kernel sizes \(settings.kernelSizes)"
    }
}

extension ModelConfiguration {
    /// A `tcn` model.
    ///
    /// - Parameters:
    ///   - channels: Output channels of each layer.
    ///   - kernelSizes: Odd temporal kernel size of each layer, in frames.
    ///   - dropout: Dropout after each layer, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public static func tcn(
        channels: [Int] = [64, 64, 64], kernelSizes: [Int] = [7, 5, 3], dropout: Double = 0, normalizeInput: Bool = false
    ) -> ModelConfiguration {
        ModelConfiguration(
            TemporalConvolutionalFamily(), .init(channels: channels, kernelSizes: kernelSizes), dropout: dropout,
            normalizeInput: normalizeInput)
    }
}
