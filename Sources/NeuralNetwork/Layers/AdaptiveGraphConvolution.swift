import Randomness

/// ST-GCN++'s graph convolution unit: a graph convolution over a learned adjacency, batch
/// normalization, a residual connection inside the unit, and a ReLU.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T, V]`:
///
/// ```
/// graphConvolution  SpatialGraphConvolution(C_in → C_out), adjacency A [K, V, V] a parameter
///                   initialized to the graph's                              (conv, A)
/// batchNorm         BatchNormalization(C_out)                                (bn)
/// down              identity when C_in = C_out, else
///                   down.0 TemporalConvolution 1×1 (C_in → C_out), down.1 BatchNormalization
/// relu              y = ReLU(batchNorm(graphConvolution(x)) + down(x))       (act)
/// ```
///
/// This is PYSKL's `unit_gcn` with `adaptive='init'`, `conv_pos='pre'`, `with_res=True`
/// (`pyskl/models/gcns/utils/gcn.py`), the setting of its ST-GCN++ configs
/// (`configs/stgcn++/*`; Duan et al., "PYSKL: Towards Good Practices for Skeleton Action
/// Recognition", ACM MM 2022): `x = conv(x).view(n, K, C_out, t, v)`,
/// `einsum('nkctv,kvw->nctw', x, A)`, `act(bn(x) + down(x))`.
///
/// PyTorch mapping: `gcn.conv.weight` `[K·C_out, C_in, 1, 1]` → `graphConvolution.weight`
/// `[K·C_out, C_in]`, `gcn.conv.bias` → `graphConvolution.bias`, `gcn.A` →
/// `graphConvolution.adjacency`, `gcn.bn.*` → `batchNorm.*`, `gcn.down.0.weight`
/// `[C_out, C_in, 1, 1]` → `down.0.weight` `[C_out, C_in, 1]`, `gcn.down.1.*` → `down.1.*`;
/// batch normalization's `running_mean`/`running_var` → `runningMean`/`runningVariance`.
public final class AdaptiveGraphConvolution: Layer {
    /// The graph convolution with its learned adjacency (PYSKL's `conv` and `A`).
    public let graphConvolution: SpatialGraphConvolution
    /// Batch normalization of the graph convolution's output (PYSKL's `bn`).
    public let batchNorm: BatchNormalization
    /// The 1×1 convolution and batch normalization on the residual path when the channels change
    /// (PYSKL's `down`), nil for the identity.
    public let down: Sequential?
    private let relu = ReLU()

    /// Creates the unit with PyTorch's default initialization drawn from `generator` in
    /// state-dictionary order (the graph convolution, then the residual convolution).
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`.
    ///   - graph: The skeleton graph whose adjacency initializes the learned one.
    ///   - generator: The source of randomness for the initial weights.
    public init(inChannels: Int, outChannels: Int, graph: SpatialGraph, using generator: inout SeededGenerator) {
        graphConvolution = SpatialGraphConvolution(
            inChannels: inChannels, outChannels: outChannels, graph: graph, learnsAdjacency: true, using: &generator)
        batchNorm = BatchNormalization(channels: outChannels)
        down = inChannels == outChannels ? nil : Sequential([
            ("0", TemporalConvolution(
                inChannels: inChannels, outChannels: outChannels, kernelSize: 1, padding: .explicit(0), using: &generator)),
            ("1", BatchNormalization(channels: outChannels)),
        ])
    }

    public var sublayers: [(name: String, layer: any Layer)] {
        [("graphConvolution", graphConvolution), ("batchNorm", batchNorm)] + (down.map { [("down", $0)] } ?? [])
    }

    /// Applies the unit.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics.
    /// - Returns: Output `[N, C_out, T, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        var y = batchNorm.forward(graphConvolution.forward(x, training: training), training: training)
        y.add(down?.forward(x, training: training) ?? x)
        return relu.forward(y, training: training)
    }

    /// Back-propagates through the ReLU, both paths, and sums their input gradients.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let gradSum = relu.backward(gradOutput)
        var gradInput = graphConvolution.backward(batchNorm.backward(gradSum))
        gradInput.add(down?.backward(gradSum) ?? gradSum)
        return gradInput
    }
}
