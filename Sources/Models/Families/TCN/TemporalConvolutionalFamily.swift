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
        public init() { self.init(channels: [64, 64, 64], kernelSizes: [7, 5, 3]) }
    }

    public init() {}

    public var name: String { "tcn" }
    public var summary: String {
        "temporal convolutional network: 1-D convolutions over time, joints and channels as features (Bai et al., 2018)"
    }
    public var settingKeys: [String] { ["channels", "kernelSizes"] }

    package func read(_ object: ManifestObjectReader, into settings: inout Settings) {
        let channelsOutcome = object.read("channels", into: &settings.channels) { $0.array(minimumCount: 1) { $0.integer(.atLeast(1)) } }
        let kernelSizesOutcome = object.read("kernelSizes", into: &settings.kernelSizes) { $0.array(minimumCount: 1, Self.kernelSize(from:)) }
        guard channelsOutcome != .invalid, kernelSizesOutcome != .invalid, settings.channels.count != settings.kernelSizes.count else { return }
        let message = "contradictory values: \(object.path("kernelSizes")) has \(settings.kernelSizes.count) entries but "
            + "\(object.path("channels")) has \(settings.channels.count); give one kernel size per layer"
        (object.member("kernelSizes") ?? object.member("channels") ?? object.node).report(message)
    }

    public func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try TemporalConvolutionalNetwork(
            configuration: .init(
                inputChannels: input.layout.channelCount * input.layout.jointCount, classCount: input.classCount,
                channels: settings.channels, kernelSizes: settings.kernelSizes, dropout: Float(input.dropout),
                keypointNormalization: input.keypointNormalization),
            using: &generator)
    }

    public func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        "TCN, " + settingsDescription(settings)
    }

    public func settingsDescription(_ settings: Settings) -> String {
        "channels \(settings.channels), kernel sizes \(settings.kernelSizes)"
    }

    private static func kernelSize(from node: ManifestNode) -> Int? {
        guard let size = node.integer(.atLeast(1)) else { return nil }
        guard size % 2 == 1 else {
            node.report("value out of range: expected an odd kernel size, so that padding keeps the length, found \(size)")
            return nil
        }
        return size
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
