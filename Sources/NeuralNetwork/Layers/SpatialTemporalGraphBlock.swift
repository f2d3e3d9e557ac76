import Randomness

/// One ST-GCN unit: a spatial graph convolution, a temporal convolution, and a residual connection.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T_out, V]` with `T_out = ⌈T / s⌉` for stride `s`
/// (odd temporal kernel `k`, padding `(k − 1)/2`). st-gcn's `st_gcn` module (`net/st_gcn.py`):
///
/// ```
/// graphConvolution     SpatialGraphConvolution(C_in → C_out)               (gcn)
/// temporal.batchNorm   BatchNormalization(C_out)                           (tcn.0)
/// temporal.relu        ReLU                                                (tcn.1)
/// temporal.convolution TemporalConvolution(C_out → C_out, k×1, stride s)   (tcn.2)
/// temporal.outputBatchNorm BatchNormalization(C_out)                       (tcn.3)
/// temporal.dropout     Dropout, only when the rate is positive             (tcn.4)
/// residual             none (first block), identity (C_in = C_out, s = 1), or
///                      residual.convolution 1×1 stride s + residual.batchNorm (residual.0, .1)
/// relu                 ReLU(temporal(graphConvolution(x)) + residual(x))
/// ```
///
/// Dropout sits after the last batch normalization, where st-gcn's code puts it.
public final class SpatialTemporalGraphBlock: Layer {
    /// The connection added before the final ReLU (Yan et al., AAAI 2018, §4; `st_gcn.residual`).
    public enum Residual: String, Hashable, Sendable {
        /// No residual connection (st-gcn's first block: `residual=False`).
        case none
        /// `x` itself; needs `C_in = C_out` and stride 1.
        case identity
        /// A 1×1 convolution with the block's stride followed by batch normalization.
        case projection

        /// The residual st-gcn uses for a block: identity when channels and length are kept,
        /// else a projection.
        public static func standard(inChannels: Int, outChannels: Int, stride: Int) -> Residual {
            inChannels == outChannels && stride == 1 ? .identity : .projection
        }
    }

    /// The spatial graph convolution (st-gcn's `gcn`).
    public let graphConvolution: SpatialGraphConvolution
    /// Batch normalization, ReLU, temporal convolution, batch normalization, dropout (st-gcn's `tcn`).
    public let temporal: Sequential
    /// The kind of residual connection.
    public let residual: Residual
    private let residualPath: ResidualPath
    private let relu = ReLU()
    /// The evaluation-mode path with batch normalization folded in (``infer(_:)``).
    private let inference: SpatialTemporalGraphBlockInference

    /// The projection of a `.projection` residual (`residual.convolution`, `residual.batchNorm`
    /// on `[N, C, T, V]`), nil for the other kinds.
    public var residualProjection: Sequential? {
        if case .projection(let projection) = residualPath { return projection }
        return nil
    }

    /// The residual connection with its layers.
    private enum ResidualPath {
        case none
        case identity
        case projection(Sequential)
    }

    /// Creates a block with PyTorch's default initialization drawn from `generator` in
    /// state-dictionary order.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`.
    ///   - graph: The skeleton graph of the spatial convolution.
    ///   - temporalKernelSize: Odd kernel size `k` of the temporal convolution (st-gcn: 9).
    ///   - stride: Temporal stride `s` of the temporal convolution and the projection.
    ///   - residual: The residual connection; `.identity` needs `C_in = C_out` and `s = 1`.
    ///   - edgeImportance: Whether the graph convolution learns an edge importance.
    ///   - dropout: The dropout rate in `[0, 1)` at the end of the temporal part; 0 adds no layer.
    ///   - generator: The source of randomness for the initial weights.
    public init(
        inChannels: Int, outChannels: Int, graph: SpatialGraph, temporalKernelSize: Int = 9, stride: Int = 1,
        residual: Residual, edgeImportance: Bool = false, dropout: Float = 0, using generator: inout SeededGenerator
    ) {
        precondition(residual != .identity || (inChannels == outChannels && stride == 1),
                     "an identity residual needs equal channels and stride 1")
        graphConvolution = SpatialGraphConvolution(
            inChannels: inChannels, outChannels: outChannels, graph: graph, edgeImportance: edgeImportance,
            using: &generator)
        let (batchNorm, outputBatchNorm) = (BatchNormalization(channels: outChannels), BatchNormalization(channels: outChannels))
        let convolution = TemporalConvolution(
            inChannels: outChannels, outChannels: outChannels, kernelSize: temporalKernelSize,
            stride: stride, padding: .same, using: &generator)
        var temporalLayers: [(name: String, layer: any Layer)] = [
            ("batchNorm", batchNorm), ("relu", ReLU()), ("convolution", convolution), ("outputBatchNorm", outputBatchNorm),
        ]
        if dropout > 0 { temporalLayers.append(("dropout", Dropout(rate: dropout))) }
        temporal = Sequential(temporalLayers)
        self.residual = residual
        var projection: (convolution: TemporalConvolution, batchNorm: BatchNormalization)?
        switch residual {
        case .none: residualPath = .none
        case .identity: residualPath = .identity
        case .projection:
            let layers = (
                convolution: TemporalConvolution(
                    inChannels: inChannels, outChannels: outChannels, kernelSize: 1, stride: stride,
                    padding: .explicit(0), using: &generator),
                batchNorm: BatchNormalization(channels: outChannels))
            projection = layers
            residualPath = .projection(Sequential([("convolution", layers.convolution), ("batchNorm", layers.batchNorm)]))
        }
        inference = SpatialTemporalGraphBlockInference(SpatialTemporalGraphBlockInference.Layers(
            graphConvolution: graphConvolution, batchNorm: batchNorm, convolution: convolution,
            outputBatchNorm: outputBatchNorm, projection: projection, identity: residual == .identity))
    }

    public var sublayers: [(name: String, layer: any Layer)] {
        var layers: [(name: String, layer: any Layer)] = [("graphConvolution", graphConvolution), ("temporal", temporal)]
        if case .projection(let projection) = residualPath { layers.append(("residual", projection)) }
        return layers
    }

    /// Applies the block.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics and dropout is active.
    /// - Returns: Output `[N, C_out, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        var y = temporal.forward(graphConvolution.forward(x, training: training), training: training)
        switch residualPath {
        case .none: break
        case .identity: y.add(x)
        case .projection(let projection): y.add(projection.forward(x, training: training))
        }
        return relu.forward(y, training: training)
    }

    /// Applies the block in evaluation mode by its folded path (``SpatialTemporalGraphBlockInference``):
    /// each batch normalization folded into the convolution before it, ReLU and the residual sum
    /// in the output passes, and the temporal convolution without a patch matrix.
    ///
    /// - Parameter x: Input `[N, C_in, T, V]`.
    /// - Returns: `forward(x, training: false)` up to rounding, `[N, C_out, T_out, V]`.
    public func infer(_ x: Tensor) -> Tensor {
        inference.apply(x)
    }

    /// Back-propagates through the ReLU, both branches, and sums their input gradients.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T_out, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let gradSum = relu.backward(gradOutput)
        var gradInput = graphConvolution.backward(temporal.backward(gradSum))
        switch residualPath {
        case .none: break
        case .identity: gradInput.add(gradSum)
        case .projection(let projection): gradInput.add(projection.backward(gradSum))
        }
        return gradInput
    }
}
