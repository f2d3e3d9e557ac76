/// The part of a training step after the loss, shared by the trainer and `training-benchmark` so
/// that the benchmark times what training runs: zero the gradients, back-propagate, clip the
/// global gradient norm if asked, take the optimizer step, then check that every parameter and
/// buffer is still finite.
///
/// A step can overflow the weights while the loss is still finite (SGD at a learning rate of
/// 1e30, say); training on from there would score and export NaN weights, so the caller ends
/// training when a tensor name comes back.
///
/// - Parameters:
///   - gradient: The gradient of the loss with respect to the model's output, shaped like the
///     output of the forward pass it follows (`[N, classes]` for a classifier).
///   - model: The model whose most recent forward pass produced that output.
///   - parameters: `model.parameters`, taken once and passed in the same order every step.
///   - optimizer: The optimizer, which keeps its state per position in `parameters`.
///   - maximumNorm: The largest global gradient norm (``clipGradientNorm(_:maximumNorm:)``), or
///     nil for no clipping; greater than 0.
/// - Returns: The state-dictionary name of the first parameter or buffer holding a NaN or an
///   infinity after the step (``Layer/firstNonFiniteTensorName()``), or nil.
public func applyGradient(
    _ gradient: Tensor, to model: any Layer, parameters: [Parameter], optimizer: any Optimizer, clippingNormAt maximumNorm: Float? = nil
) -> String? {
    zeroGradients(parameters)
    _ = model.backward(gradient)
    if let maximumNorm {
        clipGradientNorm(parameters, maximumNorm: maximumNorm)
    }
    optimizer.step(parameters: parameters)
    return model.firstNonFiniteTensorName()
}
