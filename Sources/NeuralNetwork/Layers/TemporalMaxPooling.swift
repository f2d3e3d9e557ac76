/// The maximum over a sliding window of frames (PyTorch's `nn.MaxPool1d`, or `nn.MaxPool2d` with
/// a `k×1` kernel on rank-4 input).
///
/// Input `[N, C, T]` or `[N, C, T, V]`, output `[N, C, T_out]` or `[N, C, T_out, V]` with
/// `T_out = ⌊(T + 2p − k) / s⌋ + 1` (PyTorch's `MaxPool1d` shape formula), window `k`, stride `s`
/// and padding `p` frames at each end that never win (PyTorch pads max pooling with −∞):
///
/// `y[n, c, t, v] = max_{j < k, 0 ≤ t·s − p + j < T} x[n, c, t·s − p + j, v]`
///
/// ST-GCN++'s multi-scale temporal convolution has one such branch, `nn.MaxPool2d(kernel_size=(3, 1),
/// stride=(s, 1), padding=(1, 0))` (PYSKL's `mstcn`, `pyskl/models/gcns/utils/tcn.py`; Duan et al.,
/// "PYSKL: Towards Good Practices for Skeleton Action Recognition", ACM MM 2022).
///
/// The backward pass sends each output's gradient to the frame that won its window, the first one
/// on ties (PyTorch's CPU kernel, which keeps the first maximum). The layer has no parameters.
public final class TemporalMaxPooling: Layer {
    /// Frames of each window, `k`.
    public let kernelSize: Int
    /// Step between windows in frames, `s`.
    public let stride: Int
    /// Frames of −∞ padding at each end, `p`; less than or equal to `k / 2` as PyTorch requires.
    public let padding: Int

    private var inputShape: [Int] = [0, 0, 0]
    /// For every output value, the flat index of the input value that won its window.
    private var winners: [Int] = []

    /// Creates the pooling layer.
    ///
    /// - Parameters:
    ///   - kernelSize: Frames of each window, at least 1.
    ///   - stride: Step between windows, at least 1.
    ///   - padding: Frames of padding at each end, in `0...kernelSize / 2`.
    public init(kernelSize: Int, stride: Int = 1, padding: Int = 0) {
        precondition(kernelSize > 0 && stride > 0, "TemporalMaxPooling needs a positive kernel size and stride")
        precondition(padding >= 0 && padding <= kernelSize / 2,
                     "TemporalMaxPooling: padding \(padding) must be in 0...\(kernelSize / 2)")
        self.kernelSize = kernelSize
        self.stride = stride
        self.padding = padding
    }

    /// The output length for `inputLength` frames, `⌊(T + 2p − k) / s⌋ + 1`; 0 or less when the
    /// padded input is shorter than one window.
    public func outputLength(inputLength: Int) -> Int {
        TemporalConvolution.outputLength(
            inputLength: inputLength, kernelSize: kernelSize, stride: stride, padding: padding)
    }

    /// Takes the maximum of every window.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C, T]` or `[N, C, T, V]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: `[N, C, T_out]` or `[N, C, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 3 || x.rank == 4, "TemporalMaxPooling expects [N, C, T] or [N, C, T, V], got \(x.shape)")
        let (length, width) = (x.shape[2], x.rank == 4 ? x.shape[3] : 1)
        let outLength = outputLength(inputLength: length)
        precondition(outLength > 0, "TemporalMaxPooling: input of \(length) frames is shorter than the window")
        inputShape = x.shape
        var outputShape = x.shape
        outputShape[2] = outLength
        let rows = x.shape[0] * x.shape[1]
        var winners = [Int](repeating: 0, count: rows * outLength * width)
        let (kernelSize, stride, padding) = (kernelSize, stride, padding)
        let output = Tensor(shape: outputShape) { y in
            x.withUnsafeBufferPointer { values in
                winners.withUnsafeMutableBufferPointer { winners in
                    let winners = winners
                    ComputeThreads.forEachPart(of: rows, elementsPerItem: length * width) { _, rows in
                        for row in rows {
                            for t in 0..<outLength {
                                // Padding never wins, so the window is the real frames it covers.
                                let first = max(0, t * stride - padding)
                                let end = min(length, t * stride - padding + kernelSize)
                                for v in 0..<width {
                                    var best = (row * length + first) * width + v
                                    for frame in (first + 1)..<max(first + 1, end) {
                                        let index = (row * length + frame) * width + v
                                        if values[index] > values[best] { best = index }
                                    }
                                    let out = (row * outLength + t) * width + v
                                    y[out] = values[best]
                                    winners[out] = best
                                }
                            }
                        }
                    }
                }
            }
        }
        self.winners = winners
        return output
    }

    /// Adds each output's gradient to the input frame that won its window.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, shaped like the last output.
    /// - Returns: ∂loss/∂x, shaped like the last input.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.count == winners.count && gradOutput.rank == inputShape.count,
                     "TemporalMaxPooling.backward: gradient shape \(gradOutput.shape), input \(inputShape)")
        var gradInput = Tensor(zeros: inputShape)
        gradOutput.withUnsafeBufferPointer { g in
            gradInput.withUnsafeMutableBufferPointer { dx in
                // A row's outputs have their winners in the same row, so rows split between threads.
                let (rows, rowSize) = (inputShape[0] * inputShape[1], winners.count / max(1, inputShape[0] * inputShape[1]))
                let (dx, winners) = (dx, winners)
                ComputeThreads.forEachPart(of: rows, elementsPerItem: rowSize) { _, rows in
                    for out in (rows.lowerBound * rowSize)..<(rows.upperBound * rowSize) { dx[winners[out]] += g[out] }
                }
            }
        }
        return gradInput
    }
}
