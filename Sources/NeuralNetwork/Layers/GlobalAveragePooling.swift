/// The mean over the time axis: `[N, C, T] → [N, C]`, `y[n, c] = (1/T) Σ_t x[n, c, t]`
/// (PyTorch's `x.mean(dim=2)` or `AdaptiveAvgPool1d(1)` followed by a flatten).
public final class GlobalAveragePooling: Layer {
    private var inputShape: [Int] = [0, 0, 0]

    /// Creates the pooling layer; it has no parameters.
    public init() {}

    /// Averages each channel over time.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C, T]` with `T ≥ 1`.
    ///   - training: Unused.
    /// - Returns: Output `[N, C]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 3 && x.shape[2] > 0, "GlobalAveragePooling expects [N, C, T], got \(x.shape)")
        inputShape = x.shape
        let (rows, length) = (x.shape[0] * x.shape[1], x.shape[2])
        var output = Tensor(zeros: [x.shape[0], x.shape[1]])
        x.withUnsafeBufferPointer { values in
            output.withUnsafeMutableBufferPointer { y in
                for row in 0..<rows {
                    var total: Float = 0
                    for t in 0..<length { total += values[row * length + t] }
                    y[row] = total / Float(length)
                }
            }
        }
        return output
    }

    /// Spreads each `g[n, c] / T` over the `T` frames.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C]`.
    /// - Returns: ∂loss/∂x, `[N, C, T]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == Array(inputShape.prefix(2)),
                     "GlobalAveragePooling.backward: gradient shape \(gradOutput.shape)")
        let length = inputShape[2]
        var gradInput = Tensor(zeros: inputShape)
        gradOutput.withUnsafeBufferPointer { g in
            gradInput.withUnsafeMutableBufferPointer { dx in
                for row in 0..<g.count {
                    let value = g[row] / Float(length)
                    for t in 0..<length { dx[row * length + t] = value }
                }
            }
        }
        return gradInput
    }
}
