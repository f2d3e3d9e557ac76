import Randomness

/// ST-GCN++'s multi-scale temporal convolution: parallel branches of dilated temporal
/// convolutions, a max pooling and a 1×1 convolution, concatenated, then mixed by a 1×1
/// convolution.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T_out, V]` with `T_out = ⌊(T − 1) / s⌋ + 1` for
/// stride `s`. With `B` branches, branch 0 has `C_out − (B − 1)·⌊C_out / B⌋` channels and every
/// other `⌊C_out / B⌋`, so their concatenation has `C_out`. The default branches are PYSKL's
/// `ms_cfg = [(3, 1), (3, 2), (3, 3), (3, 4), ('max', 3), '1x1']`:
///
/// ```
/// branches.i (dilated, d = 1…4)  0 TemporalConvolution 1×1 (C_in → c_i), 1 BatchNormalization, 2 ReLU,
///                                3 TemporalConvolution 3×1, dilation d, padding d, stride s (c_i → c_i)
/// branches.4 (max)               0 TemporalConvolution 1×1, 1 BatchNormalization, 2 ReLU,
///                                3 TemporalMaxPooling 3×1, padding 1, stride s
/// branches.5 (1×1)               TemporalConvolution 1×1 with stride s (C_in → c_5)
/// transform                      0 BatchNormalization(C_out), 1 ReLU, 2 TemporalConvolution 1×1 (C_out → C_out)
/// batchNorm                      BatchNormalization(C_out)
/// dropout                        Dropout, only when the rate is positive
/// ```
///
/// This is PYSKL's `mstcn` (`pyskl/models/gcns/utils/tcn.py`; Duan et al., "PYSKL: Towards Good
/// Practices for Skeleton Action Recognition", ACM MM 2022, ST-GCN++), built from ``Branches``,
/// ``Sequential`` and tested layers; its state dictionary names are PyTorch's but for
/// `branches.i.3.conv.weight` `[c, c, 3, 1]` → `branches.i.3.weight` `[c, c, 3]` (PYSKL wraps
/// that convolution in a `unit_tcn` without normalization), every convolution weight
/// `[O, I, k, 1]` → `[O, I, k]`, `bn` → `batchNorm`, and batch normalization's
/// `running_mean`/`running_var` → `runningMean`/`runningVariance`.
public final class MultiScaleTemporalConvolution: Layer {
    /// One parallel branch of the temporal convolution (an entry of PYSKL's `ms_cfg`).
    public enum Branch: Hashable, Sendable {
        /// A 1×1 convolution, batch normalization, ReLU and a temporal convolution of the kernel
        /// size with the dilation (PYSKL's `(k, d)`).
        case dilated(kernelSize: Int, dilation: Int)
        /// A 1×1 convolution, batch normalization, ReLU and a max pooling of the window with padding
        /// `window / 2` (PYSKL's `('max', k)`, whose padding is 1 for its window of 3).
        case maxPooling(window: Int)
        /// A 1×1 convolution with the stride (PYSKL's `'1x1'`).
        case pointwise

        /// PYSKL's default `ms_cfg`: dilations 1 to 4 of kernel 3, a max pooling of 3, a 1×1.
        public static let standard: [Branch] = [
            .dilated(kernelSize: 3, dilation: 1), .dilated(kernelSize: 3, dilation: 2),
            .dilated(kernelSize: 3, dilation: 3), .dilated(kernelSize: 3, dilation: 4),
            .maxPooling(window: 3), .pointwise,
        ]
    }

    /// Channels of the input, `C_in`.
    public let inChannels: Int
    /// Channels of the output, `C_out`.
    public let outChannels: Int
    /// Temporal stride of every branch, `s`.
    public let stride: Int
    /// The branches, in the order of their channels in the concatenation.
    public let branchKinds: [Branch]
    /// The layers in execution order: `branches`, `transform`, `batchNorm` and `dropout`.
    private let body: Sequential

    /// The channels of each branch: `C_out − (B − 1)·⌊C_out / B⌋` for the first, `⌊C_out / B⌋`
    /// for each other (PYSKL's `rem_mid_channels`, `mid_channels`).
    ///
    /// - Parameters:
    ///   - outChannels: Channels of the concatenation, `C_out`.
    ///   - branchCount: The number of branches `B`.
    public static func branchChannels(outChannels: Int, branchCount: Int) -> [Int] {
        let middle = outChannels / max(1, branchCount)
        return (0..<branchCount).map { $0 == 0 ? outChannels - middle * (branchCount - 1) : middle }
    }

    /// Problems that make a configuration unusable, empty when it is valid: every branch needs at
    /// least one channel, odd positive kernels and windows, positive dilations and stride.
    public static func problems(outChannels: Int, stride: Int, branches: [Branch]) -> [String] {
        var problems: [String] = []
        if branches.isEmpty { problems.append("a multi-scale temporal convolution needs at least one branch") }
        if stride < 1 { problems.append("stride must be positive, got \(stride)") }
        if !branches.isEmpty && outChannels < branches.count {
            problems.append("\(outChannels) channels cannot feed \(branches.count) branches (at least one channel each)")
        }
        for branch in branches {
            switch branch {
            case let .dilated(kernelSize, dilation) where kernelSize < 1 || kernelSize % 2 == 0 || dilation < 1:
                problems.append("a dilated branch needs an odd positive kernel and a positive dilation, got \(kernelSize), \(dilation)")
            case .maxPooling(let window) where window < 1 || window % 2 == 0:
                problems.append("a max-pooling branch needs an odd positive window, got \(window)")
            default: break
            }
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
    ///   - branches: The branches (default: PYSKL's six).
    ///   - dropout: The dropout rate in `[0, 1)` at the end; 0 adds no layer.
    ///   - generator: The source of randomness for the initial weights.
    /// - Throws: ``InvalidModelConfiguration`` listing the problems of ``problems(outChannels:stride:branches:)``.
    public init(
        inChannels: Int, outChannels: Int, stride: Int = 1, branches: [Branch] = Branch.standard, dropout: Float = 0,
        using generator: inout SeededGenerator
    ) throws {
        let problems = Self.problems(outChannels: outChannels, stride: stride, branches: branches)
        guard problems.isEmpty else { throw InvalidModelConfiguration<MultiScaleTemporalConvolution>(problems: problems) }
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.stride = stride
        branchKinds = branches
        let channels = Self.branchChannels(outChannels: outChannels, branchCount: branches.count)
        var branchLayers: [(name: String, layer: any Layer)] = []
        for (index, (branch, width)) in zip(branches, channels).enumerated() {
            // A 1×1 convolution, batch normalization and ReLU before `last`, whose weights are
            // drawn after the 1×1 convolution's, as PyTorch builds them.
            func reduced(_ last: (inout SeededGenerator) -> any Layer) -> Sequential {
                let pointwise = TemporalConvolution(
                    inChannels: inChannels, outChannels: width, kernelSize: 1, padding: .explicit(0), using: &generator)
                return Sequential([
                    ("0", pointwise), ("1", BatchNormalization(channels: width)), ("2", ReLU()), ("3", last(&generator)),
                ])
            }
            let layer: any Layer
            switch branch {
            case let .dilated(kernelSize, dilation):
                layer = reduced { generator in
                    TemporalConvolution(
                        inChannels: width, outChannels: width, kernelSize: kernelSize, stride: stride, padding: .same,
                        dilation: dilation, using: &generator)
                }
            case .maxPooling(let window):
                layer = reduced { _ in TemporalMaxPooling(kernelSize: window, stride: stride, padding: window / 2) }
            case .pointwise:
                layer = TemporalConvolution(
                    inChannels: inChannels, outChannels: width, kernelSize: 1, stride: stride, padding: .explicit(0),
                    using: &generator)
            }
            branchLayers.append((String(index), layer))
        }
        var layers: [(name: String, layer: any Layer)] = [
            ("branches", Branches(branchLayers)),
            ("transform", Sequential([
                ("0", BatchNormalization(channels: outChannels)), ("1", ReLU()),
                ("2", TemporalConvolution(inChannels: outChannels, outChannels: outChannels, kernelSize: 1,
                                          padding: .explicit(0), using: &generator)),
            ])),
            ("batchNorm", BatchNormalization(channels: outChannels)),
        ]
        if dropout > 0 { layers.append(("dropout", Dropout(rate: dropout))) }
        body = Sequential(layers)
    }

    public var sublayers: [(name: String, layer: any Layer)] { body.layers }

    /// Applies the branches, concatenates them, and mixes and normalizes the result.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Whether batch normalization uses batch statistics and dropout is active.
    /// - Returns: Output `[N, C_out, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 4 && x.shape[1] == inChannels,
                     "MultiScaleTemporalConvolution expects [N, \(inChannels), T, V], got \(x.shape)")
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
