import Randomness

/// A fully connected layer `y = x Wᵀ + b` (PyTorch's `nn.Linear`).
///
/// Input `[N, inputs]`, output `[N, outputs]`. The weight is stored `[outputs, inputs]` and the
/// bias `[outputs]`, as in PyTorch, so state dictionaries map one to one.
public final class Linear: Layer {
    /// The number of input features.
    public let inputs: Int
    /// The number of output features.
    public let outputs: Int
    /// The weight `W`, shape `[outputs, inputs]`.
    public let weight: Parameter
    /// The bias `b`, shape `[outputs]`, or `nil` for a layer without bias.
    public let bias: Parameter?

    private var input = Tensor(zeros: [0, 0])

    /// Creates a layer with PyTorch's default initialization, U(±1/√inputs) for weight and bias.
    ///
    /// - Parameters:
    ///   - inputs: The number of input features.
    ///   - outputs: The number of output features.
    ///   - bias: Whether to learn an additive bias.
    ///   - generator: The source of randomness; weight values are drawn first, then bias values.
    public init(inputs: Int, outputs: Int, bias: Bool = true, using generator: inout SeededGenerator) {
        precondition(inputs > 0 && outputs > 0, "Linear needs positive sizes, got \(inputs)→\(outputs)")
        self.inputs = inputs
        self.outputs = outputs
        weight = Parameter(
            name: "weight",
            value: Initialization.uniformFanIn(shape: [outputs, inputs], fanIn: inputs, using: &generator))
        self.bias = bias
            ? Parameter(
                name: "bias",
                value: Initialization.uniformFanIn(shape: [outputs], fanIn: inputs, using: &generator))
            : nil
    }

    public var ownParameters: [Parameter] { [weight] + (bias.map { [$0] } ?? []) }

    /// Computes `x Wᵀ + b` with one `sgemm`.
    ///
    /// - Parameters:
    ///   - x: Input `[N, inputs]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: Output `[N, outputs]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 2 && x.shape[1] == inputs, "Linear expects [N, \(inputs)], got \(x.shape)")
        let batch = x.shape[0]
        input = x
        var output = Tensor(zeros: [batch, outputs])
        multiply(x, .none, weight.value, .transpose, into: &output, m: batch, n: outputs, k: inputs, beta: 0)
        if let bias {
            addChannelBias(bias.value, to: &output, batch: batch, channels: outputs, inner: 1)
        }
        return output
    }

    /// Accumulates `∂W += gᵀ x`, `∂b += Σₙ g` and returns `∂x = g W`.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, outputs]`.
    /// - Returns: ∂loss/∂x, `[N, inputs]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let batch = input.shape[0]
        precondition(gradOutput.shape == [batch, outputs], "Linear.backward: gradient shape \(gradOutput.shape)")
        multiply(gradOutput, .transpose, input, .none, into: &weight.gradient,
                 m: outputs, n: inputs, k: batch, beta: 1)
        if let bias {
            accumulateChannelSums(of: gradOutput, into: &bias.gradient, batch: batch, channels: outputs, inner: 1)
        }
        var gradInput = Tensor(zeros: [batch, inputs])
        multiply(gradOutput, .none, weight.value, .none, into: &gradInput, m: batch, n: inputs, k: outputs, beta: 0)
        return gradInput
    }
}
