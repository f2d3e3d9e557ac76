import Randomness

/// The "ctrgcn" and "ctrgcn-small" classifiers: CTR-GCN (Chen et al., "Channel-wise Topology
/// Refinement Graph Convolution for Skeleton-Based Action Recognition", ICCV 2021), a graph
/// network whose graph units refine the skeleton's topology per channel from every sample.
///
/// Input `[N, C·V, T]` — the trainer's layout, feature `c·V + v` — and output logits
/// `[N, classCount]`, through a ``GraphNetworkHead`` (input layers, PYSKL's `data_bn`, the
/// rearrangement to `[N, C, T, V]`, the pooling and the classifier) around the blocks:
///
/// ```
/// blocks.i   GraphTemporalBlock(gcn: CTRGraphConvolution, tcn: MSG3DTemporalConvolution with
///            kernel 5, dilations 1 and 2 and stride_i); block 0 without residual and without dropout
/// ```
///
/// This is PYSKL's `CTRGCN` backbone (`pyskl/models/gcns/ctrgcn.py`, `CTRGCNBlock`) with
/// `GCNHead` for one person, over the spatial graph of ``SpatialGraph`` (st-gcn's spatial
/// partitioning, `K` = 3 subsets as PYSKL's `Graph(mode='spatial')`, whose subsets are the
/// identity, inward and outward edges instead). PyTorch mapping of the state dictionary:
/// `backbone.data_bn.*` → `inputNormalization.*` (feature `v·C + c` there, `c·V + v` here);
/// `backbone.net.i.gcn1.*` → `blocks.i.gcn.*` as ``CTRGraphConvolution`` maps them,
/// `backbone.net.i.tcn1.*` → `blocks.i.tcn.*` as ``MSG3DTemporalConvolution`` maps them,
/// `backbone.net.i.residual.*` → `blocks.i.residual.*` as ``GraphTemporalBlock`` maps them;
/// `cls_head.fc_cls.*` → `classifier.*`.
public final class CTRGCNNetwork: Classifier {
    /// One block of the channel plan: output channels and temporal stride.
    public typealias Block = SpatialTemporalGraphConvolutionalNetwork.Block

    /// The channel plans of the built-in models.
    public enum Preset: String, Codable, Hashable, Sendable, CaseIterable {
        /// PYSKL's plan (`num_stages=10`, `base_channels=64`, `inflate_stages=[5, 8]`,
        /// `down_stages=[5, 8]`): 64 ×4, 128 s2, 128, 128, 256 s2, 256, 256.
        case ctrgcn
        /// A plan for small data sets and fast sweeps, as `stgcnpp-small` is to `stgcnpp`:
        /// 32, 32, 64 s2, 64, 128 s2, 128.
        case ctrgcnSmall = "ctrgcn-small"

        /// The blocks of the plan, first block first.
        public var blocks: [Block] {
            switch self {
            case .ctrgcn:
                [64, 64, 64, 64, 128, 128, 128, 256, 256, 256].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 4 || index == 7 ? 2 : 1)
                }
            case .ctrgcnSmall:
                [32, 32, 64, 64, 128, 128].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 2 || index == 4 ? 2 : 1)
                }
            }
        }
    }

    /// The hyperparameters of a ``CTRGCNNetwork``.
    public struct Configuration: Hashable, Sendable {
        /// Channels per joint, `C` (3 for x, y, confidence).
        public var channelCount: Int
        /// The skeleton graph; its joint count is `V` and its adjacency initializes every unit's.
        public var graph: SpatialGraph
        /// The number of classes.
        public var classCount: Int
        /// The channel plan.
        public var blocks: [Block]
        /// The dropout rate at the end of each block's temporal unit but the first's, in `[0, 1)`
        /// (PYSKL's `tcn_dropout`, which its first block drops).
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
        ///   - blocks: The channel plan (default: ``Preset/ctrgcn``).
        ///   - dropout: Dropout rate (default 0).
        ///   - keypointNormalization: Centre and scale keypoints first (default nil: no).
        ///   - stream: The bone or motion stream to compute next (default nil: the joints).
        public init(channelCount: Int, graph: SpatialGraph, classCount: Int, blocks: [Block] = Preset.ctrgcn.blocks,
                    dropout: Float = 0, keypointNormalization: InputNormalization? = nil,
                    stream: KeypointStreamLayer.Configuration? = nil) {
            self.channelCount = channelCount
            self.graph = graph
            self.classCount = classCount
            self.blocks = blocks
            self.dropout = dropout
            self.keypointNormalization = keypointNormalization
            self.stream = stream
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems = GraphNetworkProblems.sizes(channelCount: channelCount, classCount: classCount, blocks: blocks)
            for (index, block) in blocks.enumerated() where block.channels >= 1 && block.stride >= 1 {
                problems += MSG3DTemporalConvolution.problems(
                    outChannels: block.channels, stride: block.stride, kernelSize: MSG3DTemporalConvolution.ctrgcnKernelSize,
                    dilations: MSG3DTemporalConvolution.ctrgcnDilations
                ).map { "block \(index): \($0)" }
            }
            problems += GraphNetworkProblems.dropoutAndInputLayers(
                dropout: dropout, keypointNormalization: keypointNormalization, stream: stream, channelCount: channelCount,
                graph: graph)
            return problems
        }
    }

    /// A configuration that cannot build a network.
    public typealias InvalidConfiguration = InvalidModelConfiguration<CTRGCNNetwork>

    /// The hyperparameters the network was built with.
    public let configuration: Configuration
    /// The input layers, `data_bn`, the blocks, the pooling and the classifier.
    public let head: GraphNetworkHead
    /// The blocks on `[N, C, T, V]`, named `0`, `1`, ….
    public var blocks: Sequential { head.blocks }

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
        head = try GraphNetworkHead(
            channelCount: configuration.channelCount, jointCount: configuration.graph.jointCount,
            classCount: configuration.classCount, keypointNormalization: configuration.keypointNormalization,
            stream: configuration.stream, using: &generator
        ) { generator in
            var layers: [any Layer] = []
            var width = configuration.channelCount
            for (index, block) in configuration.blocks.enumerated() {
                let gcn = CTRGraphConvolution(
                    inChannels: width, outChannels: block.channels, graph: configuration.graph, using: &generator)
                let tcn = try MSG3DTemporalConvolution(
                    inChannels: block.channels, outChannels: block.channels, stride: block.stride,
                    dropout: index == 0 ? 0 : configuration.dropout, using: &generator)
                layers.append(try GraphTemporalBlock(
                    gcn: gcn, tcn: tcn, inChannels: width, outChannels: block.channels, stride: block.stride,
                    residual: index == 0
                        ? .none : .standard(inChannels: width, outChannels: block.channels, stride: block.stride),
                    using: &generator))
                width = block.channels
            }
            return (layers, width)
        }
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
    public var sublayers: [(name: String, layer: any Layer)] { head.sublayers }

    /// Computes logits.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·V, T]`, feature `c·V + v`; `T` at least 1.
    ///   - training: Whether to use batch statistics and dropout.
    /// - Returns: Logits `[N, classCount]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let (channels, joints) = (configuration.channelCount, configuration.graph.jointCount)
        precondition(x.rank == 3 && x.shape[1] == channels * joints,
                     "CTRGCNNetwork expects [N, \(channels * joints), T], got \(x.shape)")
        return head.forward(x, training: training)
    }

    /// Back-propagates ∂loss/∂logits `[N, classCount]`, accumulating parameter gradients.
    ///
    /// - Returns: ∂loss/∂x, `[N, C·V, T]`.
    @discardableResult
    public func backward(_ gradLogits: Tensor) -> Tensor {
        head.backward(gradLogits)
    }
}
