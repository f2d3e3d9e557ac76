import Randomness

/// CTR-GCN's multi-scale temporal convolution (MS-G3D's `MSTCN`): parallel branches of dilated
/// temporal convolutions, a max pooling and a 1×1 convolution, each ending in batch
/// normalization, concatenated, then a ReLU.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T_out, V]` with `T_out = ⌊(T − 1) / s⌋ + 1` for
/// stride `s`. With `D` dilations there are `B = D + 2` branches: every branch but the last has
/// `c = ⌊C_out / B⌋` channels and the last (1×1) `C_out − (B − 1)·c`. CTR-GCN's blocks use kernel
/// 5 and dilations 1 and 2:
///
/// ```
/// branches.i (dilated d_i)  0 TemporalConvolution 1×1 (C_in → c), 1 BatchNormalization, 2 ReLU,
///                           3 TemporalConvolution k×1, dilation d_i, padding d_i·(k − 1)/2, stride s
///                             (3.convolution) and 3.batchNorm (PYSKL's unit_tcn)
/// branches.D (max)          0 TemporalConvolution 1×1, 1 BatchNormalization, 2 ReLU,
///                           3 TemporalMaxPooling 3×1, padding 1, stride s, 4 BatchNormalization
/// branches.D+1 (1×1)        0 TemporalConvolution 1×1 with stride s (C_in → C_out − (B − 1)·c),
///                           1 BatchNormalization
/// relu                      ReLU of the concatenation
/// dropout                   Dropout, only when the rate is positive
/// ```
///
/// This is PYSKL's `MSTCN` (`pyskl/models/gcns/utils/msg3d_utils.py`, after Liu et al.,
/// "Disentangling and Unifying Graph Convolutions for Skeleton-Based Action Recognition", CVPR
/// 2020) with `residual=False`, as PYSKL's `CTRGCNBlock` builds it (`pyskl/models/gcns/ctrgcn.py`;
/// Chen et al., ICCV 2021). Unlike the authors' CTR-GCN (`MultiScale_TemporalConv` in
/// `model/ctrgcn.py`), PYSKL applies a ReLU to the concatenation. PyTorch mapping: every
/// convolution weight `[O, I, k, 1]` → `[O, I, k]`, `branches.i.3.conv.*` →
/// `branches.i.3.convolution.*`, `branches.i.3.bn.*` → `branches.i.3.batchNorm.*`, other names
/// as PyTorch's; batch normalization's `running_mean`/`running_var` →
/// `runningMean`/`runningVariance`.
public final class MSG3DTemporalConvolution: Layer {
    /// Channels of the input, `C_in`.
    public let inChannels: Int
    /// Channels of the output, `C_out`.
    public let outChannels: Int
    /// Temporal stride of every branch, `s`.
    public let stride: Int
    /// Taps of every dilated convolution, `k`.
    public let kernelSize: Int
    /// The dilations of the dilated branches, in order.
    public let dilations: [Int]
    /// The layers in execution order: `branches`, `relu` and `dropout`.
    private let body: Sequential

    /// CTR-GCN's kernel size, 5.
    public static let ctrgcnKernelSize = 5
    /// CTR-GCN's dilations, 1 and 2.
    public static let ctrgcnDilations = [1, 2]

    /// The channels of each branch: `⌊C_out / B⌋` for all but the last, the remainder for the last.
    ///
    /// - Parameters:
    ///   - outChannels: Channels of the concatenation, `C_out`.
    ///   - branchCount: The number of branches `B`.
    public static func branchChannels(outChannels: Int, branchCount: Int) -> [Int] {
        let width = outChannels / max(1, branchCount)
        return (0..<branchCount).map { $0 == branchCount - 1 ? outChannels - width * (branchCount - 1) : width }
    }

    /// Problems that make a configuration unusable, empty when it is valid: at least one channel
    /// per branch, an odd positive kernel, positive dilations and stride.
    public static func problems(outChannels: Int, stride: Int, kernelSize: Int, dilations: [Int]) -> [String] {
        var problems: [String] = []
        let branches = dilations.count + 2
        if stride < 1 { problems.append("stride must be positive, got \(stride)") }
        if kernelSize < 1 || kernelSize % 2 == 0 { problems.append("the temporal kernel must be odd and positive, got \(kernelSize)") }
        if dilations.contains(where: { $0 < 1 }) { problems.append("dilations must be positive, got \(dilations)") }
        if outChannels < branches {
            problems.append("\(outChannels) channels cannot feed \(branches) branches (at least one channel each)")
        }
        return problems
    }

    /// Creates the layer with PyTorch's default initialization drawn from `generator` in
    /// state-dictionary order.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`, at least the number of branches.
    ///   - stride: Temporal stride `s` of every branch.
    ///   - kernelSize: Taps `k` of the dilated convolutions (default CTR-GCN's 5).
    ///   - dilations: The dilations of the dilated branches (default CTR-GCN's 1 and 2).
    ///   - dropout: The dropout rate in `[0, 1)` at the end; 0 adds no layer.
    ///   - generator: The source of randomness for the initial weights.
    /// - Throws: ``InvalidModelConfiguration`` listing the problems of
    ///   ``problems(outChannels:stride:kernelSize:dilations:)``.
    public init(
        inChannels: Int, outChannels: Int, stride: Int = 1, kernelSize: Int = ctrgcnKernelSize,
        dilations: [Int] = ctrgcnDilations, dropout: Float = 0, using generator: inout SeededGenerator
    ) throws {
        let problems = Self.problems(outChannels: outChannels, stride: stride, kernelSize: kernelSize, dilations: dilations)
        guard problems.isEmpty else { throw InvalidModelConfiguration<MSG3DTemporalConvolution>(problems: problems) }
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.stride = stride
        self.kernelSize = kernelSize
        self.dilations = dilations
        let channels = Self.branchChannels(outChannels: outChannels, branchCount: dilations.count + 2)
        func pointwise(_ outputs: Int, stride: Int = 1) -> TemporalConvolution {
            TemporalConvolution(
                inChannels: inChannels, outChannels: outputs, kernelSize: 1, stride: stride, padding: .explicit(0),
                using: &generator)
        }
        var branches: [any Layer] = []
        for (dilation, width) in zip(dilations, channels) {
            let reduce = pointwise(width)
            let temporal = TemporalConvolution(
                inChannels: width, outChannels: width, kernelSize: kernelSize, stride: stride, padding: .same,
                dilation: dilation, using: &generator)
            branches.append(Sequential([
                ("0", reduce), ("1", BatchNormalization(channels: width)), ("2", ReLU()),
                ("3", Sequential([("convolution", temporal), ("batchNorm", BatchNormalization(channels: width))])),
            ]))
        }
        let poolingWidth = channels[dilations.count]
        branches.append(Sequential([
            ("0", pointwise(poolingWidth)), ("1", BatchNormalization(channels: poolingWidth)), ("2", ReLU()),
            ("3", TemporalMaxPooling(kernelSize: 3, stride: stride, padding: 1)),
            ("4", BatchNormalization(channels: poolingWidth)),
        ]))
        let lastWidth = channels[dilations.count + 1]
        branches.append(Sequential([
            ("0", pointwise(lastWidth, stride: stride)), ("1", BatchNormalization(channels: lastWidth)),
        ]))
        var layers: [(name: String, layer: any Layer)] = [("branches", Branches(branches)), ("relu", ReLU())]
        if dropout > 0 { layers.append(("dropout", Dropout(rate: dropout))) }
        body = Sequential(layers)
    }

    public var sublayers: [(name: String, layer: any Layer)] { body.layers }

    /// Applies the branches, concatenates them and applies the ReLU.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics and dropout is active.
    /// - Returns: Output `[N, C_out, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 4 && x.shape[1] == inChannels,
                     "MSG3DTemporalConvolution expects [N, \(inChannels), T, V], got \(x.shape)")
        return body.forward(x, training: training)
    }

    /// Back-propagates through every layer in reverse order.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T_out, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        body.backward(gradOutput)
    }
}
