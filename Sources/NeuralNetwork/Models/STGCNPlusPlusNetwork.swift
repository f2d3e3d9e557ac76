import Randomness

/// The "stgcnpp" and "stgcnpp-small" classifiers: ST-GCN++ (Duan et al., "PYSKL: Towards Good
/// Practices for Skeleton Action Recognition", ACM MM 2022), ST-GCN with a learned adjacency, a
/// residual inside every graph unit and multi-scale temporal convolutions.
///
/// Input `[N, C·V, T]` — the trainer's layout, feature `c·V + v` — and output logits
/// `[N, classCount]`. Graph layers work on `[N, C, T, V]`; the model rearranges its input once,
/// as ``SpatialTemporalGraphConvolutionalNetwork`` does:
///
/// ```
/// keypointNormalization InputNormalization on [N, C·V, T]  (optional: centre and scale the keypoints)
/// inputStream         KeypointStreamLayer on [N, C·V, T]   (optional: bones or motion instead of joints)
/// inputNormalization  BatchNormalization(C·V) on [N, C·V, T]   (PYSKL's data_bn, data_bn_type 'VC')
///                     [N, C·V, T] → [N, C, V, T] → [N, C, T, V]
/// blocks.i            GraphTemporalBlock(gcn: AdaptiveGraphConvolution, tcn: MultiScaleTemporalConvolution
///                     with stride_i); block 0 without residual and without dropout
/// pooling             mean over T and V → [N, channels.last]
/// classifier          Linear(channels.last → classCount)       (PYSKL's GCNHead fc_cls)
/// ```
///
/// This is PYSKL's `STGCN` backbone (`pyskl/models/gcns/stgcn.py`) with `gcn_adaptive='init'`,
/// `gcn_with_res=True`, `tcn_type='mstcn'` (`configs/stgcn++/*`) and `GCNHead` for one person,
/// with the spatial graph of ``SpatialGraph`` (st-gcn's spatial partitioning; PYSKL's own
/// `Graph(mode='spatial')` partitions by inward and outward edges instead). PyTorch mapping of the
/// state dictionary: `backbone.data_bn.*` → `inputNormalization.*` with feature `v·C + c` there
/// becoming `c·V + v` here; `backbone.gcn.i.*` → `blocks.i.*` as ``GraphTemporalBlock``,
/// ``AdaptiveGraphConvolution`` and ``MultiScaleTemporalConvolution`` map them;
/// `cls_head.fc_cls.*` → `classifier.*`.
public final class STGCNPlusPlusNetwork: Classifier {
    /// One block of the channel plan: output channels and temporal stride.
    public typealias Block = SpatialTemporalGraphConvolutionalNetwork.Block

    /// The channel plans of the built-in models.
    public enum Preset: String, Codable, Hashable, Sendable, CaseIterable {
        /// PYSKL's plan (`num_stages=10`, `base_channels=64`, `inflate_stages=[5, 8]`,
        /// `down_stages=[5, 8]`): 64 ×4, 128 s2, 128, 128, 256 s2, 256, 256.
        case stgcnpp
        /// A plan for small data sets and fast sweeps, as `stgcn-small` is to `stgcn`:
        /// 32, 32, 64 s2, 64, 128 s2, 128.
        case stgcnppSmall = "stgcnpp-small"

        /// The blocks of the plan, first block first.
        public var blocks: [Block] {
            switch self {
            case .stgcnpp:
                [64, 64, 64, 64, 128, 128, 128, 256, 256, 256].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 4 || index == 7 ? 2 : 1)
                }
            case .stgcnppSmall:
                [32, 32, 64, 64, 128, 128].enumerated().map { index, channels in
                    Block(channels: channels, stride: index == 2 || index == 4 ? 2 : 1)
                }
            }
        }
    }

    /// The hyperparameters of an ``STGCNPlusPlusNetwork``.
    public struct Configuration: Hashable, Sendable {
        /// Channels per joint, `C` (3 for x, y, confidence).
        public var channelCount: Int
        /// The skeleton graph; its joint count is `V` and its adjacency initializes every block's.
        public var graph: SpatialGraph
        /// The number of classes.
        public var classCount: Int
        /// The channel plan.
        public var blocks: [Block]
        /// The branches of every multi-scale temporal convolution (PYSKL's `ms_cfg`).
        public var temporalBranches: [MultiScaleTemporalConvolution.Branch]
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
        ///   - blocks: The channel plan (default: ``Preset/stgcnpp``).
        ///   - temporalBranches: The temporal branches (default: PYSKL's six).
        ///   - dropout: Dropout rate (default 0).
        ///   - keypointNormalization: Centre and scale keypoints first (default nil: no).
        ///   - stream: The bone or motion stream to compute next (default nil: the joints).
        public init(channelCount: Int, graph: SpatialGraph, classCount: Int, blocks: [Block] = Preset.stgcnpp.blocks,
                    temporalBranches: [MultiScaleTemporalConvolution.Branch] = MultiScaleTemporalConvolution.Branch.standard,
                    dropout: Float = 0, keypointNormalization: InputNormalization? = nil,
                    stream: KeypointStreamLayer.Configuration? = nil) {
            self.channelCount = channelCount
            self.graph = graph
            self.classCount = classCount
            self.blocks = blocks
            self.temporalBranches = temporalBranches
            self.dropout = dropout
            self.keypointNormalization = keypointNormalization
            self.stream = stream
        }

        /// Problems that make the configuration unusable, empty when it is valid.
        public var problems: [String] {
            var problems = GraphNetworkProblems.sizes(channelCount: channelCount, classCount: classCount, blocks: blocks)
            for (index, block) in blocks.enumerated() where block.channels >= 1 && block.stride >= 1 {
                problems += MultiScaleTemporalConvolution.problems(
                    outChannels: block.channels, stride: block.stride, branches: temporalBranches
                ).map { "block \(index): \($0)" }
            }
            problems += GraphNetworkProblems.dropoutAndInputLayers(
                dropout: dropout, keypointNormalization: keypointNormalization, stream: stream, channelCount: channelCount,
                graph: graph)
            return problems
        }
    }

    /// A configuration that cannot build a network.
    public typealias InvalidConfiguration = InvalidModelConfiguration<STGCNPlusPlusNetwork>

    /// The hyperparameters the network was built with.
    public let configuration: Configuration
    /// The input layers, `data_bn`, the blocks, the pooling and the classifier.
    public let head: GraphNetworkHead
    /// The keypoint normalization (`keypointNormalization`) and the stream (`inputStream`) on
    /// `[N, C·V, T]`, each when configured (``InputNormalization/layers(_:stream:)``).
    public var inputLayers: [(name: String, layer: any Layer)] { head.inputLayers }
    /// PYSKL's `data_bn` on `[N, C·V, T]`.
    public var inputNormalization: BatchNormalization { head.inputNormalization }
    /// The blocks on `[N, C, T, V]`, named `0`, `1`, ….
    public var blocks: Sequential { head.blocks }
    /// The mean over `T` and `V`, `[N, C, T, V] → [N, C]`.
    public var pooling: GlobalAveragePooling { head.pooling }
    /// `Linear(channels.last → classCount)`.
    public var classifier: Linear { head.classifier }

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
                let gcn = AdaptiveGraphConvolution(
                    inChannels: width, outChannels: block.channels, graph: configuration.graph, using: &generator)
                let tcn = try MultiScaleTemporalConvolution(
                    inChannels: block.channels, outChannels: block.channels, stride: block.stride,
                    branches: configuration.temporalBranches, dropout: index == 0 ? 0 : configuration.dropout,
                    using: &generator)
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
                     "STGCNPlusPlusNetwork expects [N, \(channels * joints), T], got \(x.shape)")
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
