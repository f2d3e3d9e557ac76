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
/// Computed one sample at a time: the sample's input patches are laid out as a
/// `[inChannels·k, T_out·V]` matrix (im2col, `V = 1` for rank-3 input) in a workspace the layer
/// keeps between calls, and one `sgemm` with the `[outChannels, inChannels·k]` weight writes the
/// sample's `[outChannels, T_out·V]` output in place. The workspace is `inChannels·k·T_out·V`
/// floats (2.5 MB for st-gcn's blocks at 60 frames and 18 joints), so it stays in cache, where a
/// whole-batch im2col would be 32 times larger and memory-bound. At stride 1 a patch row is one
/// contiguous copy of the input row, shifted by the tap. A `1×1` convolution without stride or
/// padding multiplies the input directly. The backward pass rebuilds each sample's patches
/// (cheaper than keeping the batch's), accumulates `∂W` with one `sgemm` per sample and scatters
/// the patch gradient back to the input (col2im), the adjoint of the same index map.
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

    /// The input of the last forward call, kept for the backward pass.
    private var input = Tensor(zeros: [0, 0, 0])
    /// The patch matrix of one sample, `[inChannels·k, T_out·V]`.
    private let columns = Workspace()
    /// The gradient of one sample's patch matrix, `[inChannels·k, T_out·V]`.
    private let gradColumns = Workspace()

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
        input = x
        let patchSize = inChannels * kernelSize
        let plane = geometry.outPlane
        var output = Tensor(shape: geometry.outputShape(outChannels)) { y in
            x.withUnsafeBufferPointer { source in
                weight.value.withUnsafeBufferPointer { w in
                    for n in 0..<geometry.batch {
                        // Y[n] ([outChannels, T_out·V]) = W ([outChannels, inChannels·k]) · patches of x[n]
                        let patches = withPatches(of: source, sample: n, geometry)
                        BLAS.sgemm(
                            transposeA: .none, transposeB: .none, m: outChannels, n: plane, k: patchSize, alpha: 1,
                            a: w, lda: patchSize, b: patches.buffer, ldb: patches.stride, beta: 0,
                            c: UnsafeMutableBufferPointer(rebasing: y[(n * outChannels * plane)...]), ldc: plane)
                    }
                }
            }
        }
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
        let geometry = Geometry(input.shape, outLength: outputLength(inputLength: input.shape[2]))
        precondition(gradOutput.shape == geometry.outputShape(outChannels),
                     "TemporalConvolution.backward: gradient shape \(gradOutput.shape)")
        let (plane, inputPlane) = (geometry.outPlane, geometry.inPlane)
        if let bias {
            accumulateChannelSums(of: gradOutput, into: &bias.gradient,
                                  batch: geometry.batch, channels: outChannels, inner: plane)
        }
        let patchSize = inChannels * kernelSize
        let x = input
        return Tensor(shape: input.shape) { dx in
            x.withUnsafeBufferPointer { source in
                gradOutput.withUnsafeBufferPointer { g in
                    weight.value.withUnsafeBufferPointer { w in
                        for n in 0..<geometry.batch {
                            let gradSample = UnsafeBufferPointer(rebasing: g[(n * outChannels * plane)...])
                            // ∂W[o, r] += Σ_col ∂Y[n][o, col] · patches[r, col]
                            let patches = withPatches(of: source, sample: n, geometry)
                            weight.gradient.withUnsafeMutableBufferPointer { dw in
                                BLAS.sgemm(
                                    transposeA: .none, transposeB: .transpose, m: outChannels, n: patchSize, k: plane,
                                    alpha: 1, a: gradSample, lda: plane, b: patches.buffer, ldb: patches.stride,
                                    beta: 1, c: dw, ldc: patchSize)
                            }
                            let gradInput = UnsafeMutableBufferPointer(rebasing: dx[(n * inChannels * inputPlane)..<((n + 1) * inChannels * inputPlane)])
                            if geometry.isPointwise(kernelSize: kernelSize, stride: stride, padding: padding) {
                                // ∂x[n] = Wᵀ · ∂Y[n] directly: the patches are the input itself.
                                BLAS.sgemm(
                                    transposeA: .transpose, transposeB: .none, m: patchSize, n: plane, k: outChannels,
                                    alpha: 1, a: w, lda: patchSize, b: gradSample, ldb: plane, beta: 0,
                                    c: gradInput, ldc: plane)
                                continue
                            }
                            // ∂patches[r, col] = Σ_o W[o, r] · ∂Y[n][o, col], then col2im.
                            let gradPatches = gradColumns.buffer(count: patchSize * plane)
                            BLAS.sgemm(
                                transposeA: .transpose, transposeB: .none, m: patchSize, n: plane, k: outChannels,
                                alpha: 1, a: w, lda: patchSize, b: gradSample, ldb: plane, beta: 0,
                                c: gradPatches, ldc: plane)
                            scatterPatches(UnsafeBufferPointer(gradPatches), into: gradInput, geometry)
                        }
                    }
                }
            }
        }
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

        /// Values of one output channel of one sample, `T_out·V`.
        var outPlane: Int { outLength * width }
        /// Values of one input channel of one sample, `T·V`.
        var inPlane: Int { length * width }

        /// Whether the patches of a sample are the sample itself (`k = 1`, `s = 1`, `p = 0`).
        func isPointwise(kernelSize: Int, stride: Int, padding: Int) -> Bool {
            kernelSize == 1 && stride == 1 && padding == 0 && outLength == length
        }

        func outputShape(_ channels: Int) -> [Int] {
            isRank4 ? [batch, channels, outLength, width] : [batch, channels, outLength]
        }
    }

    /// The patch matrix `[inChannels·k, T_out·V]` of sample `n` and its row stride: the sample
    /// itself for a pointwise convolution, else the layer's workspace filled by im2col.
    ///
    /// Row `c·k + j`, column `t·V + v` holds `x[n, c, t·s − p + j·d, v]`, or 0 where that frame is
    /// padding. The buffer stays valid until the next call (it points into ``columns``' workspace,
    /// or into `source`).
    private func withPatches(
        of source: UnsafeBufferPointer<Float>, sample n: Int, _ geometry: Geometry
    ) -> (buffer: UnsafeBufferPointer<Float>, stride: Int) {
        let (plane, inputPlane) = (geometry.outPlane, geometry.inPlane)
        let sample = UnsafeBufferPointer(rebasing: source[(n * inChannels * inputPlane)..<((n + 1) * inChannels * inputPlane)])
        if geometry.isPointwise(kernelSize: kernelSize, stride: stride, padding: padding) {
            return (sample, inputPlane)
        }
        let patches = columns.buffer(count: inChannels * kernelSize * plane)
        let width = geometry.width
        for c in 0..<inChannels {
            let channel = c * inputPlane
            for j in 0..<kernelSize {
                let tap = taps(j, geometry)
                let row = (c * kernelSize + j) * plane
                patches[row..<(row + tap.first * width)].update(repeating: 0)
                if stride == 1 {
                    let from = channel + (tap.first + tap.offset) * width
                    let count = (tap.end - tap.first) * width
                    let target = row + tap.first * width
                    _ = UnsafeMutableBufferPointer(rebasing: patches[target..<(target + count)])
                        .update(fromContentsOf: sample[from..<(from + count)])
                } else {
                    for t in tap.first..<tap.end {
                        let (from, target) = (channel + (t * stride + tap.offset) * width, row + t * width)
                        for v in 0..<width { patches[target + v] = sample[from + v] }
                    }
                }
                patches[(row + tap.end * width)..<(row + plane)].update(repeating: 0)
            }
        }
        return (UnsafeBufferPointer(patches), plane)
    }

    /// Adds a patch gradient `[inChannels·k, T_out·V]` into one sample's input gradient
    /// `[inChannels, T·V]` (col2im), which it first sets to zero: the adjoint of
    /// ``withPatches(of:sample:_:)``.
    private func scatterPatches(
        _ gradPatches: UnsafeBufferPointer<Float>, into gradInput: UnsafeMutableBufferPointer<Float>, _ geometry: Geometry
    ) {
        let (plane, inputPlane, width) = (geometry.outPlane, geometry.inPlane, geometry.width)
        gradInput.update(repeating: 0)
        for c in 0..<inChannels {
            let channel = c * inputPlane
            for j in 0..<kernelSize {
                let tap = taps(j, geometry)
                let row = (c * kernelSize + j) * plane
                if stride == 1 {
                    let target = channel + (tap.first + tap.offset) * width
                    let source = row + tap.first * width
                    for i in 0..<((tap.end - tap.first) * width) { gradInput[target + i] += gradPatches[source + i] }
                } else {
                    for t in tap.first..<tap.end {
                        let (target, source) = (channel + (t * stride + tap.offset) * width, row + t * width)
                        for v in 0..<width { gradInput[target + v] += gradPatches[source + v] }
                    }
                }
            }
        }
    }

    /// The output frames `first..<end` whose tap `j` reads a real (non-padding) input frame, and
    /// the tap's offset `j·d − p`: output frame `t` reads input frame `t·s + offset`.
    @inline(__always)
    private func taps(_ j: Int, _ geometry: Geometry) -> (first: Int, end: Int, offset: Int) {
        let offset = j * dilation - padding
        // first: the smallest t with t·s + offset >= 0; end: one past the largest t with t·s + offset < T.
        let first = offset >= 0 ? 0 : (-offset + stride - 1) / stride
        let last = geometry.length - 1 - offset
        let end = last < 0 ? 0 : min(geometry.outLength, last / stride + 1)
        return (min(first, end), end, offset)
    }
}
