import Randomness

/// One block of a graph network of PYSKL's kind: a graph unit, a temporal unit, a residual
/// connection around both, and a ReLU.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T_out, V]`:
///
/// ```
/// gcn        the graph unit, [N, C_in, T, V] → [N, C_out, T, V]        (e.g. AdaptiveGraphConvolution)
/// tcn        the temporal unit with the block's stride s, → [N, C_out, T_out, V]
///                                                                      (e.g. MultiScaleTemporalConvolution)
/// residual   none (first block), identity (C_in = C_out, s = 1), or
///            residual.convolution 1×1 stride s + residual.batchNorm
/// relu       y = ReLU(tcn(gcn(x)) + residual(x))
/// ```
///
/// This is PYSKL's `STGCNBlock` (`pyskl/models/gcns/stgcn.py`; with `unit_gcn` and `mstcn` it is
/// ST-GCN++, Duan et al., "PYSKL: Towards Good Practices for Skeleton Action Recognition", ACM MM
/// 2022), whose residual is `unit_tcn(C_in, C_out, kernel_size=1, stride=s)`. PyTorch mapping:
/// `gcn.*` and `tcn.*` as the units map them, `residual.conv.weight` `[C_out, C_in, 1, 1]` →
/// `residual.convolution.weight` `[C_out, C_in, 1]`, `residual.conv.bias` →
/// `residual.convolution.bias`, `residual.bn.*` → `residual.batchNorm.*`.
public final class GraphTemporalBlock: Layer {
    /// The graph unit (PYSKL's `gcn`).
    public let gcn: any Layer
    /// The temporal unit (PYSKL's `tcn`).
    public let tcn: any Layer
    /// The kind of residual connection.
    public let residual: SpatialTemporalGraphBlock.Residual
    /// The projection of a `.projection` residual (`residual.convolution`, `residual.batchNorm`),
    /// nil for the other kinds.
    public let residualProjection: Sequential?
    private let relu = ReLU()

    /// Creates a block around two units; a projection residual draws its initial weights from
    /// `generator` after the units' (state-dictionary order).
    ///
    /// - Parameters:
    ///   - gcn: The graph unit, `[N, C_in, T, V] → [N, C_out, T, V]`.
    ///   - tcn: The temporal unit with stride `s`, `[N, C_out, T, V] → [N, C_out, T_out, V]`.
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`.
    ///   - stride: Temporal stride `s` of the temporal unit and of a projection.
    ///   - residual: The residual connection; `.identity` needs `C_in = C_out` and `s = 1`.
    ///   - generator: The source of randomness for a projection's weights.
    /// - Throws: ``InvalidModelConfiguration`` for an identity residual that changes the channels or
    ///   the length.
    public init(
        gcn: any Layer, tcn: any Layer, inChannels: Int, outChannels: Int, stride: Int,
        residual: SpatialTemporalGraphBlock.Residual, using generator: inout SeededGenerator
    ) throws {
        guard residual != .identity || (inChannels == outChannels && stride == 1) else {
            throw InvalidModelConfiguration<GraphTemporalBlock>(problems: [
                "an identity residual needs equal channels and stride 1, got \(inChannels) → \(outChannels), stride \(stride)",
            ])
        }
        self.gcn = gcn
        self.tcn = tcn
        self.residual = residual
        residualProjection = residual != .projection ? nil : Sequential([
            ("convolution", TemporalConvolution(
                inChannels: inChannels, outChannels: outChannels, kernelSize: 1, stride: stride,
                padding: .explicit(0), using: &generator)),
            ("batchNorm", BatchNormalization(channels: outChannels)),
        ])
    }

    public var sublayers: [(name: String, layer: any Layer)] {
        [("gcn", gcn), ("tcn", tcn)] + (residualProjection.map { [("residual", $0)] } ?? [])
    }

    /// Applies the block.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics and dropout is active.
    /// - Returns: Output `[N, C_out, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        var y = tcn.forward(gcn.forward(x, training: training), training: training)
        switch residual {
        case .none: break
        case .identity: y.add(x)
        case .projection: if let residualProjection { y.add(residualProjection.forward(x, training: training)) }
        }
        return relu.forward(y, training: training)
    }

    /// Back-propagates through the ReLU, both paths, and sums their input gradients.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T_out, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let gradSum = relu.backward(gradOutput)
        var gradInput = gcn.backward(tcn.backward(gradSum))
        switch residual {
        case .none: break
        case .identity: gradInput.add(gradSum)
        case .projection: if let residualProjection { gradInput.add(residualProjection.backward(gradSum)) }
        }
        return gradInput
    }
}
