/// The mean over every axis after the channels: `[N, C, T] → [N, C]` or `[N, C, T, V] → [N, C]`.
///
/// `y[n, c] = (1/S) Σ_s x[n, c, s]` over the `S = T` or `S = T·V` trailing positions (PyTorch's
/// `x.mean(dim=2)`, or for graph models st-gcn's `F.avg_pool2d(x, x.size()[2:])` followed by a
/// flatten; `net/st_gcn.py`).
public final class GlobalAveragePooling: Layer {
    private var inputShape: [Int] = [0, 0, 0]

    /// Creates the pooling layer; it has no parameters.
    public init() {}

    /// Averages each channel over time (and joints).
    ///
    /// - Parameters:
    ///   - x: Input `[N, C, T]` or `[N, C, T, V]` with at least one trailing position.
    ///   - training: Unused.
    /// - Returns: Output `[N, C]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition((x.rank == 3 || x.rank == 4) && x.count > 0,
                     "GlobalAveragePooling expects [N, C, T] or [N, C, T, V], got \(x.shape)")
        inputShape = x.shape
        let (rows, length) = (x.shape[0] * x.shape[1], x.shape.dropFirst(2).reduce(1, *))
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

    /// Spreads each `g[n, c] / S` over the `S` trailing positions.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C]`.
    /// - Returns: ∂loss/∂x, shaped like the last input.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == Array(inputShape.prefix(2)),
                     "GlobalAveragePooling.backward: gradient shape \(gradOutput.shape)")
        let length = inputShape.dropFirst(2).reduce(1, *)
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
