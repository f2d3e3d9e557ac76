/// A convolution over time (PyTorch's `nn.Conv1d` with `groups = 1`, or `nn.Conv2d` with a
/// `k×1` kernel on rank-4 input).
///
/// Input `[N, inChannels, T]`, output `[N, outChannels, T_out]` with
/// `T_out = ⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1` (the `Conv1d` shape formula in PyTorch's
/// documentation), zero padding `p` on both ends, stride `s` and dilation `d`:
///
/// `y[n, o, t] = b[o] + Σ_c Σ_j W[o, c, j] · x[n, c, t·s − p + j·d]`
///
/// A rank-4 input `[N, inChannels, T, V]` (a graph model's joints `V`) is convolved over `T` for
/// every `v` independently with the same filters, giving `[N, outChannels, T_out, V]`: st-gcn's
/// temporal convolution `nn.Conv2d(C, C, (k, 1), (s, 1), (p, 0))` (`net/st_gcn.py`), whose weight
/// `[out, in, k, 1]` is this layer's `[out, in, k]`.
///
/// Computed as im2col — a `[inChannels·k, N·T_out·V]` matrix of input patches for the whole
/// batch (`V = 1` for rank-3 input) — followed by one `sgemm` with the `[outChannels, inChannels·k]`
/// weight. The backward pass uses `sgemm` for the weight gradient and for the patch gradient,
/// which col2im scatters back to the input.
public final class TemporalConvolution: Layer {
    /// How much zero padding to add at each end of the time axis.
    public enum Padding: Hashable, Sendable {
        /// `d(k − 1)/2` frames at each end, so that `T_out = T` at stride 1; needs an odd kernel
        /// size. (PyTorch's `padding="same"`, which PyTorch allows only at stride 1; here the same
        /// padding is also used with a larger stride.)
        case same
        /// The given number of frames at each end (PyTorch's integer `padding`).
        case explicit(Int)
    }

    /// Channels of the input.
    public let inChannels: Int
    /// Channels of the output (number of filters).
    public let outChannels: Int
    /// Taps of each filter, `k`.
    public let kernelSize: Int
    /// Step between output frames in input frames, `s`.
    public let stride: Int
    /// Zero frames added at each end of the time axis, `p` (resolved from ``Padding``).
    public let padding: Int
    /// Spacing between filter taps in input frames, `d`.
    public let dilation: Int
    /// The filters `W`, shape `[outChannels, inChannels, kernelSize]`.
    public let weight: Parameter
    /// The bias `b`, shape `[outChannels]`, or `nil` for a convolution without bias.
    public let bias: Parameter?

    private var inputShape: [Int] = [0, 0, 0]
    /// im2col matrix of the last forward input, `[inChannels·k, N·T_out·V]`.
    private var columns = Tensor(zeros: [0, 0])

    /// Creates a convolution with PyTorch's default initialization, U(±1/√(inChannels·k)) for
    /// weight and bias.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input.
    ///   - outChannels: Channels of the output.
    ///   - kernelSize: Taps of each filter.
    ///   - stride: Step between output frames.
    ///   - padding: `.same` (default) or an explicit number of zero frames at each end.
    ///   - dilation: Spacing between taps.
    ///   - bias: Whether to learn an additive bias per output channel.
    ///   - generator: The source of randomness; weight values are drawn first, then bias values.
    public init(
        inChannels: Int, outChannels: Int, kernelSize: Int,
        stride: Int = 1, padding: Padding = .same, dilation: Int = 1, bias: Bool = true,
        using generator: inout SeededGenerator
    ) {
        precondition(inChannels > 0 && outChannels > 0 && kernelSize > 0 && stride > 0 && dilation > 0,
                     "TemporalConvolution needs positive channels, kernel size, stride and dilation")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.kernelSize = kernelSize
        self.stride = stride
        self.dilation = dilation
        switch padding {
        case .same:
            precondition(kernelSize % 2 == 1, "padding .same needs an odd kernel size, got \(kernelSize)")
            self.padding = dilation * (kernelSize - 1) / 2
        case .explicit(let frames):
            precondition(frames >= 0, "padding must be non-negative, got \(frames)")
            self.padding = frames
        }
        let fanIn = inChannels * kernelSize
        weight = Parameter(
            name: "weight",
            value: Initialization.uniformFanIn(
                shape: [outChannels, inChannels, kernelSize], fanIn: fanIn, using: &generator))
        self.bias = bias
            ? Parameter(
                name: "bias",
                value: Initialization.uniformFanIn(shape: [outChannels], fanIn: fanIn, using: &generator))
            : nil
    }

    public var ownParameters: [Parameter] { [weight] + (bias.map { [$0] } ?? []) }

    /// The output length of a convolution, PyTorch's `Conv1d` formula
    /// `⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1`.
    ///
    /// - Parameters:
    ///   - inputLength: Input frames `T`.
    ///   - kernelSize: Taps `k`.
    ///   - stride: Step `s`.
    ///   - padding: Zero frames `p` at each end.
    ///   - dilation: Tap spacing `d`.
    /// - Returns: Output frames; 0 or less when the padded input is shorter than one filter.
    public static func outputLength(
        inputLength: Int, kernelSize: Int, stride: Int = 1, padding: Int = 0, dilation: Int = 1
    ) -> Int {
        let span = inputLength + 2 * padding - dilation * (kernelSize - 1) - 1
        // Floor division (Swift's `/` truncates toward zero).
        return (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1
    }

    /// The output length of this layer for `inputLength` input frames.
    public func outputLength(inputLength: Int) -> Int {
        Self.outputLength(inputLength: inputLength, kernelSize: kernelSize, stride: stride,
                          padding: padding, dilation: dilation)
    }

    /// Convolves a batch.
    ///
    /// - Parameters:
    ///   - x: Input `[N, inChannels, T]` or `[N, inChannels, T, V]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: Output `[N, outChannels, T_out]` or `[N, outChannels, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition((x.rank == 3 || x.rank == 4) && x.shape[1] == inChannels,
                     "TemporalConvolution expects [N, \(inChannels), T] or [N, \(inChannels), T, V], got \(x.shape)")
        let geometry = Geometry(x.shape, outLength: outputLength(inputLength: x.shape[2]))
        precondition(geometry.outLength > 0, "TemporalConvolution: input of \(geometry.length) frames is shorter than the filter")
        inputShape = x.shape
        columns = Tensor(zeros: [inChannels * kernelSize, geometry.columnCount])
        x.withUnsafeBufferPointer { source in
            columns.withUnsafeMutableBufferPointer { target in
                forEachTap(geometry) { inputIndex, columnIndex in
                    target[columnIndex] = source[inputIndex]
                }
            }
        }

        // Y'[o, (n, t, v)] = W[o, :] · columns[:, (n, t, v)]
        var product = Tensor(zeros: [outChannels, geometry.columnCount])
        multiply(weight.value, .none, columns, .none, into: &product,
                 m: outChannels, n: geometry.columnCount, k: inChannels * kernelSize, beta: 0)
        let plane = geometry.outLength * geometry.width
        var output = product.swappingAxes(
            outer: 1, outChannels, geometry.batch, inner: plane, shape: geometry.outputShape(outChannels))
        if let bias {
            addChannelBias(bias.value, to: &output, batch: geometry.batch, channels: outChannels, inner: plane)
        }
        return output
    }

    /// Accumulates ∂W and ∂b and returns ∂x for the last forward call.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, outChannels, T_out]` or `[N, outChannels, T_out, V]`.
    /// - Returns: ∂loss/∂x, `[N, inChannels, T]` or `[N, inChannels, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let geometry = Geometry(inputShape, outLength: outputLength(inputLength: inputShape[2]))
        precondition(gradOutput.shape == geometry.outputShape(outChannels),
                     "TemporalConvolution.backward: gradient shape \(gradOutput.shape)")
        let plane = geometry.outLength * geometry.width
        if let bias {
            accumulateChannelSums(of: gradOutput, into: &bias.gradient,
                                  batch: geometry.batch, channels: outChannels, inner: plane)
        }
        let gradProduct = gradOutput.swappingAxes(
            outer: 1, geometry.batch, outChannels, inner: plane, shape: [outChannels, geometry.columnCount])
        let patchSize = inChannels * kernelSize
        // ∂W[o, r] += Σ_col ∂Y'[o, col] · columns[r, col]
        multiply(gradProduct, .none, columns, .transpose, into: &weight.gradient,
                 m: outChannels, n: patchSize, k: geometry.columnCount, beta: 1)
        // ∂columns[r, col] = Σ_o W[o, r] · ∂Y'[o, col]
        var gradColumns = Tensor(zeros: [patchSize, geometry.columnCount])
        multiply(weight.value, .transpose, gradProduct, .none, into: &gradColumns,
                 m: patchSize, n: geometry.columnCount, k: outChannels, beta: 0)
        var gradInput = Tensor(zeros: inputShape)
        gradColumns.withUnsafeBufferPointer { source in
            gradInput.withUnsafeMutableBufferPointer { target in
                forEachTap(geometry) { inputIndex, columnIndex in
                    target[inputIndex] += source[columnIndex]
                }
            }
        }
        return gradInput
    }

    /// The extents of one forward call: `[N, C, T]` is treated as `[N, C, T, 1]`.
    private struct Geometry {
        let batch: Int
        let length: Int
        let width: Int
        let outLength: Int
        let isRank4: Bool

        init(_ shape: [Int], outLength: Int) {
            batch = shape[0]
            length = shape[2]
            width = shape.count == 4 ? shape[3] : 1
            isRank4 = shape.count == 4
            self.outLength = outLength
        }

        /// Columns of the im2col matrix, `N·T_out·V`.
        var columnCount: Int { batch * outLength * width }

        func outputShape(_ channels: Int) -> [Int] {
            isRank4 ? [batch, channels, outLength, width] : [batch, channels, outLength]
        }
    }

    /// Calls `body(inputIndex, columnIndex)` for every tap that reads a real (non-padding) frame.
    ///
    /// `inputIndex` addresses `x[n, c, t·s − p + j·d, v]` in an `[N, inChannels, T, V]` buffer and
    /// `columnIndex` addresses `columns[c·k + j, (n·T_out + t)·V + v]`. im2col copies along this
    /// map and col2im adds along it, so the two are adjoint by construction.
    @inline(__always)
    private func forEachTap(_ geometry: Geometry, _ body: (_ inputIndex: Int, _ columnIndex: Int) -> Void) {
        let (batch, length, outLength, width) = (geometry.batch, geometry.length, geometry.outLength, geometry.width)
        let columnCount = geometry.columnCount
        for c in 0..<inChannels {
            for j in 0..<kernelSize {
                let row = (c * kernelSize + j) * columnCount
                let offset = j * dilation - padding
                for n in 0..<batch {
                    let inputBase = (n * inChannels + c) * length
                    let columnBase = row + n * outLength * width
                    for t in 0..<outLength {
                        let source = t * stride + offset
                        guard source >= 0 && source < length else { continue }
                        let from = (inputBase + source) * width
                        let to = columnBase + t * width
                        for v in 0..<width { body(from + v, to + v) }
                    }
                }
            }
        }
    }
}
