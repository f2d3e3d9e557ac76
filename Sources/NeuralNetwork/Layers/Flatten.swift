/// Flattens every axis after the batch axis: `[N, d₁, d₂, …] → [N, d₁·d₂·…]`, row-major
/// (PyTorch's `nn.Flatten()`, ONNX `Flatten` with `axis = 1`).
public final class Flatten: Layer {
    private var inputShape: [Int] = [0, 0]

    /// Creates the layer; it has no parameters.
    public init() {}

    /// Reshapes `x` to `[N, rest]` without moving values.
    ///
    /// - Parameters:
    ///   - x: Input of rank at least 2.
    ///   - training: Unused.
    /// - Returns: `[N, d₁·d₂·…]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank >= 2, "Flatten expects [N, ...], got \(x.shape)")
        inputShape = x.shape
        return x.reshaped([x.shape[0], x.shape.dropFirst().reduce(1, *)])
    }

    /// Reshapes the gradient back to the last input's shape.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.count == inputShape.reduce(1, *), "Flatten.backward: gradient shape \(gradOutput.shape)")
        return gradOutput.reshaped(inputShape)
    }
}
