/// A one-dimensional convolution over time (PyTorch's `nn.Conv1d` with `groups = 1`).
///
/// Input `[N, inChannels, T]`, output `[N, outChannels, T_out]` with
/// `T_out = ⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1` (the `Conv1d` shape formula in PyTorch's
/// documentation), zero padding `p` on both ends, stride `s` and dilation `d`:
///
/// `y[n, o, t] = b[o] + Σ_c Σ_j W[o, c, j] · x[n, c, t·s − p + j·d]`
///
/// Computed as im2col — a `[inChannels·k, N·T_out]` matrix of input patches for the whole
/// batch — followed by one `sgemm` with the `[outChannels, inChannels·k]` weight. The backward
/// pass uses `sgemm` for the weight gradient and for the patch gradient, which col2im scatters
/// back to the input.
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
    /// im2col matrix of the last forward input, `[inChannels·k, N·T_out]`.
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
    ///   - x: Input `[N, inChannels, T]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: Output `[N, outChannels, T_out]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 3 && x.shape[1] == inChannels,
                     "TemporalConvolution expects [N, \(inChannels), T], got \(x.shape)")
        let (batch, length) = (x.shape[0], x.shape[2])
        let outLength = outputLength(inputLength: length)
        precondition(outLength > 0, "TemporalConvolution: input of \(length) frames is shorter than the filter")
        inputShape = x.shape
        columns = Tensor(zeros: [inChannels * kernelSize, batch * outLength])
        x.withUnsafeBufferPointer { source in
            columns.withUnsafeMutableBufferPointer { target in
                forEachTap(batch: batch, length: length, outLength: outLength) { inputIndex, columnIndex in
                    target[columnIndex] = source[inputIndex]
                }
            }
        }

        // Y'[o, n·T_out + t] = W[o, :] · columns[:, n·T_out + t]
        var product = Tensor(zeros: [outChannels, batch * outLength])
        multiply(weight.value, .none, columns, .none, into: &product,
                 m: outChannels, n: batch * outLength, k: inChannels * kernelSize, beta: 0)
        var output = Self.swapLeadingAxes(product, outer: outChannels, middle: batch, inner: outLength)
        if let bias {
            addChannelBias(bias.value, to: &output, batch: batch, channels: outChannels, inner: outLength)
        }
        return output.reshaped([batch, outChannels, outLength])
    }

    /// Accumulates ∂W and ∂b and returns ∂x for the last forward call.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, outChannels, T_out]`.
    /// - Returns: ∂loss/∂x, `[N, inChannels, T]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length) = (inputShape[0], inputShape[2])
        let outLength = outputLength(inputLength: length)
        precondition(gradOutput.shape == [batch, outChannels, outLength],
                     "TemporalConvolution.backward: gradient shape \(gradOutput.shape)")
        if let bias {
            accumulateChannelSums(of: gradOutput, into: &bias.gradient,
                                  batch: batch, channels: outChannels, inner: outLength)
        }
        let gradProduct = Self.swapLeadingAxes(gradOutput, outer: batch, middle: outChannels, inner: outLength)
        let patchSize = inChannels * kernelSize
        // ∂W[o, r] += Σ_col ∂Y'[o, col] · columns[r, col]
        multiply(gradProduct, .none, columns, .transpose, into: &weight.gradient,
                 m: outChannels, n: patchSize, k: batch * outLength, beta: 1)
        // ∂columns[r, col] = Σ_o W[o, r] · ∂Y'[o, col]
        var gradColumns = Tensor(zeros: [patchSize, batch * outLength])
        multiply(weight.value, .transpose, gradProduct, .none, into: &gradColumns,
                 m: patchSize, n: batch * outLength, k: outChannels, beta: 0)
        var gradInput = Tensor(zeros: inputShape)
        gradColumns.withUnsafeBufferPointer { source in
            gradInput.withUnsafeMutableBufferPointer { target in
                forEachTap(batch: batch, length: length, outLength: outLength) { inputIndex, columnIndex in
                    target[inputIndex] += source[columnIndex]
                }
            }
        }
        return gradInput
    }

    /// Calls `body(inputIndex, columnIndex)` for every tap that reads a real (non-padding) frame.
    ///
    /// `inputIndex` addresses `x[n, c, t·s − p + j·d]` in an `[N, inChannels, T]` buffer and
    /// `columnIndex` addresses `columns[c·k + j, n·T_out + t]`. im2col copies along this map and
    /// col2im adds along it, so the two are adjoint by construction.
    @inline(__always)
    private func forEachTap(
        batch: Int, length: Int, outLength: Int, _ body: (_ inputIndex: Int, _ columnIndex: Int) -> Void
    ) {
        let columnCount = batch * outLength
        for c in 0..<inChannels {
            for j in 0..<kernelSize {
                let row = (c * kernelSize + j) * columnCount
                let offset = j * dilation - padding
                for n in 0..<batch {
                    let inputBase = (n * inChannels + c) * length
                    let columnBase = row + n * outLength
                    for t in 0..<outLength {
                        let source = t * stride + offset
                        if source >= 0 && source < length {
                            body(inputBase + source, columnBase + t)
                        }
                    }
                }
            }
        }
    }

    /// Reorders a `[A, B, inner]` buffer to `[B, A, inner]`.
    private static func swapLeadingAxes(_ tensor: Tensor, outer: Int, middle: Int, inner: Int) -> Tensor {
        var result = Tensor(zeros: [middle, outer, inner])
        tensor.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for a in 0..<outer {
                    for b in 0..<middle {
                        let from = (a * middle + b) * inner
                        let to = (b * outer + a) * inner
                        for i in 0..<inner { target[to + i] = source[from + i] }
                    }
                }
            }
        }
        return result
    }
}
