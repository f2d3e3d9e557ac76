import Randomness

/// The "mlp" classifier: a whole window flattened into one vector, one hidden layer.
///
/// Input `[N, C·J, T]` (the trainer's layout, fixed `T`) and output logits `[N, classCount]`:
///
/// ```
/// keypointNormalization KeypointNormalization    (optional: centre and scale x, y per frame)
/// inputStream          KeypointStreamLayer          (optional: bones or motion instead of joints)
/// inputNormalization   BatchNormalization(C·J)   (per keypoint value, as the other models)
/// flatten              [N, C·J, T] → [N, C·J·T]  (feature (c·J + j)·T + t)
/// hidden               Linear(C·J·T → hiddenUnits) → ReLU (→ Dropout when dropout > 0)
/// classifier           Linear(hiddenUnits → classCount)
/// ```
///
/// A baseline without any notion of time or skeleton: it shows what the structured models add.
/// State dictionary names: `inputNormalization.*`, `hidden.weight`, `hidden.bias`,
/// `classifier.weight`, `classifier.bias`.
public final class MultilayerPerceptron: Classifier {
    /// The hyperparameters of a ``MultilayerPerceptron``.
    public struct Configuration: Codable, Hashable, Sendable {
        /// Input channels per frame, `C·J`.
        public var inputChannels: Int
        /// Frames per window, `T`.
        public var frames: Int
        /// Width of the hidden layer.
        public var hiddenUnits: Int
        /// The number of classes.
        public var classCount: Int
        /// The dropout rate after the hidden layer's ReLU, in `[0, 1)`; 0 adds no dropout layer.
        public var dropout: Float
        /// Where x, y and confidence are, to centre and scale them inside the model; nil for none.
        public var keypointNormalization: InputNormalization?
        /// The stream computed from the (normalized) keypoints before the network
        /// (``KeypointStreamLayer``); nil for the joints themselves.
        public var stream: KeypointStreamLayer.Configuration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - inputChannels: `C·J`.
        ///   - frames: `T`.
        ///   - hiddenUnits: Width of the hidden layer (default 256).
        ///   - classCount: The number of classes.
        ///   - dropout: Dropout after the hidden layer (default 0).
        ///   - keypointNormalization: Centre and scale keypoints first (default nil: no).
        ///   - stream: The bone or motion stream to compute next (default nil: the joints).
        public init(inputChannels: Int, frames: Int, hiddenUnits: Int = 256, classCount: Int, dropout: Float = 0,
                    keypointNormalization: InputNormalization? = nil, stream: KeypointStreamLayer.Configuration? = nil) {
            self.inputChannels = inputChannels
            self.frames = frames
            self.hiddenUnits = hiddenUnits
            self.classCount = classCount
            self.dropout = dropout
            self.keypointNormalization = keypointNormalization
            self.stream = stream
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems: [String] = []
            if inputChannels < 1 { problems.append("inputChannels must be positive, got \(inputChannels)") }
            if frames < 1 { problems.append("frames must be positive, got \(frames)") }
            if hiddenUnits < 1 { problems.append("hiddenUnits must be positive, got \(hiddenUnits)") }
            if classCount < 2 { problems.append("classCount must be at least 2, got \(classCount)") }
            if !(dropout >= 0 && dropout < 1) { problems.append("dropout must be in [0, 1), got \(dropout)") }
            problems += keypointNormalization?.problems(forInputChannels: inputChannels) ?? []
            problems += stream?.problems(forInputChannels: inputChannels) ?? []
            return problems
        }
    }

    /// A configuration that cannot build a network.
    public typealias InvalidConfiguration = InvalidModelConfiguration<MultilayerPerceptron>

    /// The hyperparameters the network was built with.
    public let configuration: Configuration
    private let body: Sequential

    /// Builds a network with PyTorch's default initialization drawn from `generator` (hidden
    /// layer first, then the classifier).
    ///
    /// - Parameters:
    ///   - configuration: The hyperparameters.
    ///   - generator: The source of randomness for the initial weights.
    /// - Throws: ``InvalidConfiguration`` listing every problem of `configuration`.
    public init(configuration: Configuration, using generator: inout SeededGenerator) throws {
        let problems = configuration.problems
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems) }
        self.configuration = configuration
        var layers = InputNormalization.layers(configuration.keypointNormalization, stream: configuration.stream) + [
            ("inputNormalization", BatchNormalization(channels: configuration.inputChannels)),
            ("flatten", Flatten()),
            ("hidden", Linear(
                inputs: configuration.inputChannels * configuration.frames, outputs: configuration.hiddenUnits,
                using: &generator)),
            ("relu", ReLU()),
        ]
        if configuration.dropout > 0 { layers.append(("dropout", Dropout(rate: configuration.dropout))) }
        layers.append(("classifier", Linear(inputs: configuration.hiddenUnits, outputs: configuration.classCount, using: &generator)))
        body = Sequential(layers)
    }

    /// Builds a network initialized from `SeededGenerator(seed: seed, purpose: "initialization")`.
    ///
    /// - Throws: ``InvalidConfiguration`` listing every problem of `configuration`.
    public convenience init(configuration: Configuration, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed, purpose: "initialization")
        try self.init(configuration: configuration, using: &generator)
    }

    public var classCount: Int { configuration.classCount }
    public var inputShape: [Int?] { [configuration.inputChannels, configuration.frames] }
    public var sublayers: [(name: String, layer: any Layer)] { body.layers }

    /// Computes logits.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·J, T]` with the configured `T`.
    ///   - training: Whether to use batch statistics and dropout.
    /// - Returns: Logits `[N, classCount]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 3 && x.shape[1] == configuration.inputChannels && x.shape[2] == configuration.frames,
                     "MultilayerPerceptron expects [N, \(configuration.inputChannels), \(configuration.frames)], got \(x.shape)")
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
