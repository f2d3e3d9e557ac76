import Randomness

/// The "tcn" classifier: stacked temporal convolutions over keypoints flattened per frame.
///
/// Input `[N, C·J, T]` — for each frame the `C` channels (x, y, confidence) of the `J` joints
/// flattened into `C·J` input channels — and output logits `[N, classCount]`:
///
/// ```
/// keypointNormalization KeypointNormalization    (optional: centre and scale x, y per frame)
/// inputStream          KeypointStreamLayer          (optional: bones or motion instead of joints)
/// inputNormalization   BatchNormalization(C·J)   (ST-GCN's data_bn; Yan et al., AAAI 2018)
/// blocks.i             TemporalConvolution(k_i, "same" padding, dilation d_i)
///                      → BatchNormalization → ReLU (→ Dropout when dropout > 0)
/// pooling              GlobalAveragePooling over time
/// classifier           Linear(channels.last → classCount)
/// ```
///
/// The layout follows the temporal convolutional networks of Bai, Kolter & Koltun ("An Empirical
/// Evaluation of Generic Convolutional and Recurrent Networks for Sequence Modeling", 2018), with
/// non-causal "same" padding because a whole window is classified at once.
/// State dictionary names are `inputNormalization.weight`, `blocks.0.convolution.weight`,
/// `blocks.0.batchNorm.runningMean`, …, `classifier.weight`, `classifier.bias`.
public final class TemporalConvolutionalNetwork: Classifier {
    /// The hyperparameters of a ``TemporalConvolutionalNetwork``.
    public struct Configuration: Codable, Hashable, Sendable {
        /// Input channels per frame, `C·J` (e.g. 3 × 18 = 54 for Vision-18 keypoints).
        public var inputChannels: Int
        /// The number of classes.
        public var classCount: Int
        /// Output channels of each block's convolution.
        public var channels: [Int]
        /// Kernel size of each block's convolution; each must be odd ("same" padding).
        public var kernelSizes: [Int]
        /// Dilation of each block's convolution.
        public var dilations: [Int]
        /// The dropout rate after each block's ReLU, in `[0, 1)`; 0 adds no dropout layers.
        public var dropout: Float
        /// Where x, y and confidence are, to centre and scale them inside the model
        /// (``InputNormalization``); nil to take the input as it is.
        public var keypointNormalization: InputNormalization?
        /// The stream computed from the (normalized) keypoints before the network
        /// (``KeypointStreamLayer``); nil for the joints themselves.
        public var stream: KeypointStreamLayer.Configuration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - inputChannels: Input channels per frame, `C·J`.
        ///   - classCount: The number of classes.
        ///   - channels: Output channels per block (default `[64, 64, 64]`).
        ///   - kernelSizes: Odd kernel size per block (default `[7, 5, 3]`).
        ///   - dilations: Dilation per block (default: 1 for every block).
        ///   - dropout: Dropout rate after each block (default 0).
        ///   - keypointNormalization: Centre and scale keypoints first (default nil: no).
        ///   - stream: The bone or motion stream to compute next (default nil: the joints).
        public init(inputChannels: Int, classCount: Int, channels: [Int] = [64, 64, 64],
                    kernelSizes: [Int] = [7, 5, 3], dilations: [Int]? = nil, dropout: Float = 0,
                    keypointNormalization: InputNormalization? = nil, stream: KeypointStreamLayer.Configuration? = nil) {
            self.inputChannels = inputChannels
            self.classCount = classCount
            self.channels = channels
            self.kernelSizes = kernelSizes
            self.dilations = dilations ?? [Int](repeating: 1, count: channels.count)
            self.dropout = dropout
            self.keypointNormalization = keypointNormalization
            self.stream = stream
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems: [String] = []
            if inputChannels < 1 { problems.append("inputChannels must be positive, got \(inputChannels)") }
            if classCount < 2 { problems.append("classCount must be at least 2, got \(classCount)") }
            if channels.isEmpty { problems.append("channels must name at least one block") }
            if kernelSizes.count != channels.count || dilations.count != channels.count {
                problems.append("channels, kernelSizes and dilations need one entry per block, got "
                    + "\(channels.count), \(kernelSizes.count) and \(dilations.count)")
            }
            if channels.contains(where: { $0 < 1 }) { problems.append("channels must be positive, got \(channels)") }
            if kernelSizes.contains(where: { $0 < 1 || $0 % 2 == 0 }) {
                problems.append("kernelSizes must be odd and positive, got \(kernelSizes)")
            }
            if dilations.contains(where: { $0 < 1 }) { problems.append("dilations must be positive, got \(dilations)") }
            if !(dropout >= 0 && dropout < 1) { problems.append("dropout must be in [0, 1), got \(dropout)") }
            problems += keypointNormalization?.problems(forInputChannels: inputChannels) ?? []
            problems += stream?.problems(forInputChannels: inputChannels) ?? []
            return problems
        }
    }

    /// A configuration that cannot build a network.
    public typealias InvalidConfiguration = InvalidModelConfiguration<TemporalConvolutionalNetwork>

    /// The hyperparameters the network was built with.
    public let configuration: Configuration
    private let body: Sequential

    /// Builds a network with PyTorch's default initialization drawn from `generator`.
    ///
    /// Parameters are drawn in state-dictionary order (block by block, weight before bias, then
    /// the classifier), so the same generator state gives bit-identical weights.
    ///
    /// - Parameters:
    ///   - configuration: The hyperparameters.
    ///   - generator: The source of randomness for the initial weights.
    /// - Throws: ``InvalidConfiguration`` listing every problem of `configuration`.
    public init(configuration: Configuration, using generator: inout SeededGenerator) throws {
        let problems = configuration.problems
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems) }
        self.configuration = configuration
        var blocks: [any Layer] = []
        var width = configuration.inputChannels
        for (index, outChannels) in configuration.channels.enumerated() {
            var block: [(name: String, layer: any Layer)] = [
                ("convolution", TemporalConvolution(
                    inChannels: width, outChannels: outChannels,
                    kernelSize: configuration.kernelSizes[index], padding: .same,
                    dilation: configuration.dilations[index], using: &generator)),
                ("batchNorm", BatchNormalization(channels: outChannels)),
                ("relu", ReLU()),
            ]
            if configuration.dropout > 0 {
                block.append(("dropout", Dropout(rate: configuration.dropout)))
            }
            blocks.append(Sequential(block))
            width = outChannels
        }
        body = Sequential(InputNormalization.layers(configuration.keypointNormalization, stream: configuration.stream) + [
            ("inputNormalization", BatchNormalization(channels: configuration.inputChannels)),
            ("blocks", Sequential(blocks)),
            ("pooling", GlobalAveragePooling()),
            ("classifier", Linear(inputs: width, outputs: configuration.classCount, using: &generator)),
        ])
    }

    /// Builds a network initialized from `SeededGenerator(seed: seed, purpose: "initialization")`.
    ///
    /// - Parameters:
    ///   - configuration: The hyperparameters.
    ///   - seed: The trial's root seed.
    /// - Throws: ``InvalidConfiguration`` listing every problem of `configuration`.
    public convenience init(configuration: Configuration, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed, purpose: "initialization")
        try self.init(configuration: configuration, using: &generator)
    }

    public var classCount: Int { configuration.classCount }
    public var inputShape: [Int?] { [configuration.inputChannels, nil] }
    public var sublayers: [(name: String, layer: any Layer)] { body.layers }

    /// Computes logits.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·J, T]`; training needs `N·T ≥ 2` for batch normalization.
    ///   - training: Whether to use batch statistics and dropout.
    /// - Returns: Logits `[N, classCount]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 3 && x.shape[1] == configuration.inputChannels,
                     "TemporalConvolutionalNetwork expects [N, \(configuration.inputChannels), T], got \(x.shape)")
        return body.forward(x, training: training)
    }

    /// Back-propagates ∂loss/∂logits `[N, classCount]`, accumulating parameter gradients.
    ///
    /// - Returns: ∂loss/∂x, `[N, C·J, T]`.
    @discardableResult
    public func backward(_ gradLogits: Tensor) -> Tensor {
        body.backward(gradLogits)
    }
}
