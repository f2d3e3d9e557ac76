import Randomness

/// CTR-GCN's graph convolution unit: one channel-wise topology refinement per subset of the
/// adjacency, summed, batch normalization, a residual connection inside the unit, and a ReLU.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T, V]`:
///
/// ```
/// adjacency   A [K, V, V], a parameter initialized to the graph's             (A, PA in the paper)
/// alpha       α [1], a parameter initialized to 0, shared by the K subsets     (alpha)
/// convs.k     ChannelwiseTopologyRefinement(C_in → C_out) of subset k          (convs.k)
/// batchNorm   BatchNormalization(C_out) of Σ_k convs.k(x)                      (bn)
/// down        identity when C_in = C_out, else
///             down.0 TemporalConvolution 1×1 (C_in → C_out), down.1 BatchNormalization
/// relu        y = ReLU(batchNorm(Σ_k convs.k(x)) + down(x))
/// ```
///
/// This is PYSKL's `unit_ctrgcn` (`pyskl/models/gcns/utils/gcn.py`; Chen et al., "Channel-wise
/// Topology Refinement Graph Convolution for Skeleton-Based Action Recognition", ICCV 2021; the
/// authors' `unit_gcn` with `adaptive=True` in `model/ctrgcn.py`). Initialization is PyTorch's
/// default for every convolution and batch normalization (PYSKL's `init_weights`, Kaiming normal
/// and a batch-norm scale of 1e-6, is not applied, as for ST-GCN++'s units); `α` starts at 0 as
/// in PYSKL's constructor. PyTorch mapping: `gcn.A` → `adjacency`, `gcn.alpha` → `alpha`,
/// `gcn.convs.k.*` → `convs.k.*` as ``ChannelwiseTopologyRefinement`` maps them, `gcn.bn.*` →
/// `batchNorm.*`, `gcn.down.0.weight` `[C_out, C_in, 1, 1]` → `down.0.weight` `[C_out, C_in, 1]`,
/// `gcn.down.1.*` → `down.1.*`; batch normalization's `running_mean`/`running_var` →
/// `runningMean`/`runningVariance`.
public final class CTRGraphConvolution: Layer {
    /// Channels of the input, `C_in`.
    public let inChannels: Int
    /// Channels of the output, `C_out`.
    public let outChannels: Int
    /// The learned adjacency `A` `[K, V, V]`, initialized to the graph's.
    public let adjacency: Parameter
    /// The scale `α` `[1]` of every subset's refinement.
    public let alpha: Parameter
    /// One refinement per subset, `convs.0` … `convs.K−1`.
    public let refinements: [ChannelwiseTopologyRefinement]
    /// Batch normalization of the refinements' sum (PYSKL's `bn`).
    public let batchNorm: BatchNormalization
    /// The 1×1 convolution and batch normalization on the residual path when the channels change
    /// (PYSKL's `down`), nil for the identity.
    public let down: Sequential?
    private let convs: LayerList
    private let relu = ReLU()

    /// Creates the unit with PyTorch's default initialization drawn from `generator` in
    /// state-dictionary order (the refinements subset by subset, then the residual convolution).
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`.
    ///   - graph: The skeleton graph whose adjacency initializes the learned one.
    ///   - generator: The source of randomness for the initial weights.
    public init(inChannels: Int, outChannels: Int, graph: SpatialGraph, using generator: inout SeededGenerator) {
        self.inChannels = inChannels
        self.outChannels = outChannels
        let adjacency = Parameter(name: "adjacency", value: graph.adjacency)
        let alpha = Parameter(name: "alpha", value: Tensor(zeros: [1]))
        self.adjacency = adjacency
        self.alpha = alpha
        refinements = (0..<graph.partitionCount).map { subset in
            ChannelwiseTopologyRefinement(
                inChannels: inChannels, outChannels: outChannels, adjacency: adjacency, alpha: alpha, subset: subset,
                using: &generator)
        }
        convs = LayerList(refinements)
        batchNorm = BatchNormalization(channels: outChannels)
        down = inChannels == outChannels ? nil : Sequential([
            ("0", TemporalConvolution(
                inChannels: inChannels, outChannels: outChannels, kernelSize: 1, padding: .explicit(0), using: &generator)),
            ("1", BatchNormalization(channels: outChannels)),
        ])
    }

    public var ownParameters: [Parameter] { [adjacency, alpha] }

    public var sublayers: [(name: String, layer: any Layer)] {
        [("convs", convs), ("batchNorm", batchNorm)] + (down.map { [("down", $0)] } ?? [])
    }

    /// Applies the unit.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics.
    /// - Returns: Output `[N, C_out, T, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 4 && x.shape[1] == inChannels,
                     "CTRGraphConvolution expects [N, \(inChannels), T, V], got \(x.shape)")
        var sum = refinements[0].forward(x, training: training)
        for refinement in refinements.dropFirst() { sum.add(refinement.forward(x, training: training)) }
        var y = batchNorm.forward(sum, training: training)
        y.add(down?.forward(x, training: training) ?? x)
        return relu.forward(y, training: training)
    }

    /// Back-propagates through the ReLU, both paths, and sums their input gradients.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let gradSum = relu.backward(gradOutput)
        let gradRefined = batchNorm.backward(gradSum)
        var gradInput = refinements[0].backward(gradRefined)
        for refinement in refinements.dropFirst() { gradInput.add(refinement.backward(gradRefined)) }
        gradInput.add(down?.backward(gradSum) ?? gradSum)
        return gradInput
    }
}
