import Randomness

/// The "stgcn" and "stgcn-small" classifiers: ST-GCN (Yan, Xiong & Lin, "Spatial Temporal Graph
/// Convolutional Networks for Skeleton-Based Action Recognition", AAAI 2018), the model family of
/// Create ML's action classifier.
///
/// Input `[N, C·V, T]` — the trainer's layout, the `C` channels (x, y, confidence) of the `V`
/// joints of each frame flattened channel-major, feature `c·V + v` — and output logits
/// `[N, classCount]`. Graph layers work on `[N, C, T, V]`; the model rearranges its input once:
///
/// ```
/// keypointNormalization InputNormalization on [N, C·V, T]  (optional: centre and scale the keypoints)
/// inputStream         KeypointStreamLayer on [N, C·V, T]      (optional: bones or motion instead of joints)
/// inputNormalization  BatchNormalization(C·V) on [N, C·V, T]   (st-gcn's data_bn)
///                     [N, C·V, T] → [N, C, V, T] → [N, C, T, V]
/// blocks.i            SpatialTemporalGraphBlock(channels_i, stride_i); block 0 without residual
/// pooling             mean over T and V → [N, channels.last]
/// classifier          Linear(channels.last → classCount)          (st-gcn's fcn, a 1×1 conv)
/// ```
///
/// This is st-gcn's `Model` (`net/st_gcn.py`) for one person (`M = 1`) with the spatial graph of
/// ``SpatialGraph``, temporal kernel 9 and edge-importance weighting. PyTorch mapping of the
/// state dictionary: `data_bn.*` → `inputNormalization.*` with feature `v·C + c` there becoming
/// `c·V + v` here; `st_gcn_networks.i.gcn.conv.weight` `[K·C_out, C_in, 1, 1]` →
/// `blocks.i.graphConvolution.weight` `[K·C_out, C_in]`; `edge_importance.i` →
/// `blocks.i.graphConvolution.edgeImportance`; `tcn.0`, `tcn.2`, `tcn.3` → `temporal.batchNorm`,
/// `temporal.convolution` (weight `[C, C, 9, 1]` → `[C, C, 9]`), `temporal.outputBatchNorm`;
/// `residual.0`, `residual.1` → `residual.convolution` (`[C_out, C_in, 1, 1]` → `[C_out, C_in, 1]`),
/// `residual.batchNorm`; `fcn.weight` `[classes, C, 1, 1]` → `classifier.weight` `[classes, C]`;
/// batch normalization's `running_mean`/`running_var` → `runningMean`/`runningVariance`.
public final class SpatialTemporalGraphConvolutionalNetwork: Classifier {
    /// One block of the channel plan.
    public struct Block: Codable, Hashable, Sendable {
        /// Output channels of the block.
        public var channels: Int
        /// Temporal stride of the block (2 halves the number of frames).
        public var stride: Int

        /// Creates a block entry.
        public init(channels: Int, stride: Int = 1) {
            self.channels = channels
            self.stride = stride
        }
    }

    /// The channel plans of the built-in models.
    public enum Preset: String, Codable, Hashable, Sendable, CaseIterable {
        /// st-gcn's plan (`net/st_gcn.py`): 64, 64, 64, 128 s2, 128, 128, 256 s2, 256, 256.
        case stgcn
        /// A plan for small data sets and fast sweeps: 32, 32, 64 s2, 64, 128 s2, 128.
        case stgcnSmall = "stgcn-small"

        /// The blocks of the plan, first block first.
        public var blocks: [Block] {
            switch self {
            case .stgcn:
                [64, 64, 64, 128, 128, 128, 256, 256, 256].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 3 || index == 6 ? 2 : 1)
                }
            case .stgcnSmall:
                [32, 32, 64, 64, 128, 128].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 2 || index == 4 ? 2 : 1)
                }
            }
        }
    }

    /// The hyperparameters of a ``SpatialTemporalGraphConvolutionalNetwork``.
    public struct Configuration: Hashable, Sendable {
        /// Channels per joint, `C` (3 for x, y, confidence).
        public var channelCount: Int
        /// The skeleton graph; its joint count is `V`.
        public var graph: SpatialGraph
        /// The number of classes.
        public var classCount: Int
        /// The channel plan.
        public var blocks: [Block]
        /// The odd kernel size of every temporal convolution, in frames (st-gcn: 9).
        public var temporalKernelSize: Int
        /// Whether every graph convolution learns an edge importance (st-gcn's
        /// `edge_importance_weighting`, on in its published models).
        public var edgeImportance: Bool
        /// The dropout rate at the end of each block's temporal part, in `[0, 1)`.
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
        ///   - channelCount: Channels per joint, `C`.
        ///   - graph: The skeleton graph.
        ///   - classCount: The number of classes.
        ///   - blocks: The channel plan (default: ``Preset/stgcn``).
        ///   - temporalKernelSize: Odd temporal kernel size (default 9).
        ///   - edgeImportance: Whether to learn edge importance (default true).
        ///   - dropout: Dropout rate (default 0).
        ///   - keypointNormalization: Centre and scale keypoints first (default nil: no).
        ///   - stream: The bone or motion stream to compute next (default nil: the joints).
        public init(channelCount: Int, graph: SpatialGraph, classCount: Int, blocks: [Block] = Preset.stgcn.blocks,
                    temporalKernelSize: Int = 9, edgeImportance: Bool = true, dropout: Float = 0,
                    keypointNormalization: InputNormalization? = nil, stream: KeypointStreamLayer.Configuration? = nil) {
            self.channelCount = channelCount
            self.graph = graph
            self.classCount = classCount
            self.blocks = blocks
            self.temporalKernelSize = temporalKernelSize
            self.edgeImportance = edgeImportance
            self.dropout = dropout
            self.keypointNormalization = keypointNormalization
            self.stream = stream
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems = GraphNetworkProblems.sizes(channelCount: channelCount, classCount: classCount, blocks: blocks)
            if temporalKernelSize < 1 || temporalKernelSize % 2 == 0 {
                problems.append("temporalKernelSize must be odd and positive, got \(temporalKernelSize)")
            }
            problems += GraphNetworkProblems.dropoutAndInputLayers(
                dropout: dropout, keypointNormalization: keypointNormalization, stream: stream, channelCount: channelCount,
                graph: graph)
            return problems
        }
    }

    /// A configuration that cannot build a network.
    public typealias InvalidConfiguration = InvalidModelConfiguration<SpatialTemporalGraphConvolutionalNetwork>

    /// The hyperparameters the network was built with.
    public let configuration: Configuration
    /// The keypoint normalization (`keypointNormalization`) and the stream (`inputStream`) on
    /// `[N, C·V, T]`, each when configured (``InputNormalization/layers(_:stream:)``).
    public let inputLayers: [(name: String, layer: any Layer)]
    /// st-gcn's `data_bn` on `[N, C·V, T]`.
    public let inputNormalization: BatchNormalization
    /// The blocks on `[N, C, T, V]`, named `0`, `1`, ….
    public let blocks: Sequential
    /// The mean over `T` and `V`, `[N, C, T, V] → [N, C]`.
    public let pooling = GlobalAveragePooling()
    /// `Linear(channels.last → classCount)`.
    public let classifier: Linear
    private var inputShapeOfLastForward: [Int] = [0, 0, 0]

    /// Builds a network with PyTorch's default initialization drawn from `generator` in
    /// state-dictionary order (block by block, then the classifier).
    ///
    /// - Parameters:
    ///   - configuration: The hyperparameters.
    ///   - generator: The source of randomness for the initial weights.
    /// - Throws: ``InvalidConfiguration`` listing every problem of `configuration`.
    public init(configuration: Configuration, using generator: inout SeededGenerator) throws {
        let problems = configuration.problems
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems) }
        self.configuration = configuration
        inputLayers = InputNormalization.layers(configuration.keypointNormalization, stream: configuration.stream)
        inputNormalization = BatchNormalization(channels: configuration.channelCount * configuration.graph.jointCount)
        var layers: [any Layer] = []
        var width = configuration.channelCount
        for (index, block) in configuration.blocks.enumerated() {
            layers.append(SpatialTemporalGraphBlock(
                inChannels: width, outChannels: block.channels, graph: configuration.graph,
                temporalKernelSize: configuration.temporalKernelSize, stride: block.stride,
                residual: index == 0
                    ? .none : .standard(inChannels: width, outChannels: block.channels, stride: block.stride),
                edgeImportance: configuration.edgeImportance, dropout: configuration.dropout, using: &generator))
            width = block.channels
        }
        blocks = Sequential(layers)
        classifier = Linear(inputs: width, outputs: configuration.classCount, using: &generator)
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
    public var inputShape: [Int?] { [configuration.channelCount * configuration.graph.jointCount, nil] }
    public var sublayers: [(name: String, layer: any Layer)] {
        inputLayers + [("inputNormalization", inputNormalization), ("blocks", blocks), ("classifier", classifier)]
    }

    /// Computes logits.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·V, T]`, feature `c·V + v`; `T` at least 1.
    ///   - training: Whether to use batch statistics and dropout.
    /// - Returns: Logits `[N, classCount]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        logits(x, training: training) { blocks.forward($0, training: training) }
    }

    /// Computes logits in evaluation mode, the blocks by their folded path
    /// (``SpatialTemporalGraphBlock/infer(_:)``); ``backward(_:)`` must not follow.
    ///
    /// - Parameter x: Windows `[N, C·V, T]`, feature `c·V + v`; `T` at least 1.
    /// - Returns: Logits `[N, classCount]`, `forward(x, training: false)` up to rounding.
    public func infer(_ x: Tensor) -> Tensor {
        logits(x, training: false) { blocks.infer($0) }
    }

    /// The layers around the blocks, with `applyBlocks` from `[N, C, T, V]` to `[N, C_last, T_out, V]`.
    private func logits(_ x: Tensor, training: Bool, applyBlocks: (Tensor) -> Tensor) -> Tensor {
        let (channels, joints) = (configuration.channelCount, configuration.graph.jointCount)
        precondition(x.rank == 3 && x.shape[1] == channels * joints,
                     "SpatialTemporalGraphConvolutionalNetwork expects [N, \(channels * joints), T], got \(x.shape)")
        inputShapeOfLastForward = x.shape
        let (batch, length) = (x.shape[0], x.shape[2])
        let centred = inputLayers.reduce(x) { $1.layer.forward($0, training: training) }
        let normalized = inputNormalization.forward(centred, training: training)
        let graphInput = normalized.swappingAxes(
            outer: batch * channels, joints, length, inner: 1, shape: [batch, channels, length, joints])
        let features = pooling.forward(applyBlocks(graphInput), training: training)
        return classifier.forward(features, training: training)
    }

    /// Back-propagates ∂loss/∂logits `[N, classCount]`, accumulating parameter gradients.
    ///
    /// - Returns: ∂loss/∂x, `[N, C·V, T]`.
    @discardableResult
    public func backward(_ gradLogits: Tensor) -> Tensor {
        let (channels, joints) = (configuration.channelCount, configuration.graph.jointCount)
        let (batch, length) = (inputShapeOfLastForward[0], inputShapeOfLastForward[2])
        let gradGraphInput = blocks.backward(pooling.backward(classifier.backward(gradLogits)))
        let gradNormalized = gradGraphInput.swappingAxes(
            outer: batch * channels, length, joints, inner: 1, shape: inputShapeOfLastForward)
        let gradCentred = inputNormalization.backward(gradNormalized)
        return inputLayers.reversed().reduce(gradCentred) { $1.layer.backward($0) }
    }
}
