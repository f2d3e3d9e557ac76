import Foundation

/// Scales all gradients together so that their global L2 norm is at most `maximumNorm`, with the
/// semantics of PyTorch's `torch.nn.utils.clip_grad_norm_` (norm type 2).
///
/// ```
/// total = √(Σ_p ‖∇p‖²)                                   (over every element of every gradient)
/// coefficient = min(maximumNorm / (total + 1e-6), 1)
/// ∇p ← coefficient · ∇p                                   (for every parameter p)
/// ```
///
/// As in PyTorch, gradients are multiplied by the clamped coefficient even when it is 1, which
/// leaves them unchanged. The sum of squares is accumulated in `Double` (PyTorch accumulates in
/// the gradients' `float32`), so the norm can differ from PyTorch's in the last bits.
///
/// - Parameters:
///   - parameters: The parameters whose gradients to clip, e.g. `model.parameters`.
///   - maximumNorm: The largest allowed global norm, greater than 0.
/// - Returns: The global norm before clipping (what PyTorch returns).
@discardableResult
public func clipGradientNorm(_ parameters: [Parameter], maximumNorm: Float) -> Float {
    precondition(maximumNorm > 0, "clipGradientNorm: maximumNorm must be positive, got \(maximumNorm)")
    var sumOfSquares = 0.0
    for parameter in parameters {
        parameter.gradient.withUnsafeBufferPointer { gradient in
            for value in gradient { sumOfSquares += Double(value) * Double(value) }
        }
    }
    let total = Float(sumOfSquares.squareRoot())
    let coefficient = min(maximumNorm / (total + 1e-6), 1)
    for parameter in parameters {
        parameter.gradient.withUnsafeMutableBufferPointer { gradient in
            for index in gradient.indices { gradient[index] *= coefficient }
        }
    }
    return total
}
