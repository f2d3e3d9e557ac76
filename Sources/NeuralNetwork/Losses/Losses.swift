import Foundation

/// How per-sample losses are combined into one number.
public enum Reduction: Sendable, Hashable {
    /// The weighted mean: the sum of per-sample losses divided by the sum of the weights of the
    /// samples' target classes (the batch size when there are no class weights).
    case mean
    /// The sum of per-sample losses.
    case sum
}

/// Returns the row-wise softmax of `[N, K]` logits, `p[n, k] = exp(z[n, k]) / Σ_j exp(z[n, j])`.
///
/// The row maximum is subtracted before exponentiating, so large logits do not overflow.
///
/// - Parameter logits: Scores `[N, K]`.
/// - Returns: Probabilities `[N, K]`; each row sums to 1.
public func softmax(_ logits: Tensor) -> Tensor {
    logSoftmax(logits).map { Foundation.exp($0) }
}

/// Returns the row-wise log-softmax of `[N, K]` logits, `z[n, k] − log Σ_j exp(z[n, j])`,
/// computed stably as `(z − max) − log Σ exp(z − max)` with the sum in `Double`.
///
/// - Parameter logits: Scores `[N, K]`.
/// - Returns: Log-probabilities `[N, K]`.
public func logSoftmax(_ logits: Tensor) -> Tensor {
    precondition(logits.rank == 2 && logits.shape[1] > 0, "logSoftmax expects [N, K], got \(logits.shape)")
    let classes = logits.shape[1]
    var result = logits
    result.withUnsafeMutableBufferPointer { z in
        for row in 0..<logits.shape[0] {
            let base = row * classes
            var maximum = z[base]
            for k in 1..<classes { maximum = max(maximum, z[base + k]) }
            var total = 0.0
            for k in 0..<classes { total += Foundation.exp(Double(z[base + k] - maximum)) }
            let logTotal = Float(Foundation.log(total))
            for k in 0..<classes { z[base + k] = (z[base + k] - maximum) - logTotal }
        }
    }
    return result
}

/// Softmax cross-entropy of `[N, K]` logits against class indices, with PyTorch's
/// `nn.CrossEntropyLoss` semantics for class weights and label smoothing.
///
/// With `log p = logSoftmax(z)`, class weights `w` (all 1 when `nil`), smoothing `ε` and
/// `K` classes, sample `n` with target `y` contributes
///
/// `ℓₙ = (1 − ε) · w[y] · (−log p[n, y]) + (ε / K) · Σ_k w[k] · (−log p[n, k])`
///
/// and `.mean` divides `Σₙ ℓₙ` by `Σₙ w[yₙ]` (both terms, as PyTorch's
/// `cross_entropy` does: `aten/src/ATen/native/LossNLL.cpp`, `cross_entropy_loss_label_smoothing`).
/// The gradient is `∂ℓₙ/∂z[n, j] = (1 − ε) · w[y] · (p[n, j] − [j = y]) + (ε / K) · (W · p[n, j] − w[j])`
/// with `W = Σ_k w[k]`, divided by the same normalizer.
///
/// - Parameters:
///   - logits: Unnormalized scores `[N, K]`.
///   - labels: `N` class indices in `0..<K`.
///   - classWeights: Optional `K` non-negative weights, e.g. inverse class frequencies.
///   - labelSmoothing: `ε` in `[0, 1]` (Szegedy et al., "Rethinking the Inception Architecture", 2016).
///   - reduction: `.mean` (default) or `.sum`.
/// - Returns: The loss, its gradient with respect to `logits` (`[N, K]`) and the softmax
///   probabilities (`[N, K]`).
public func softmaxCrossEntropy(
    logits: Tensor, labels: [Int], classWeights: [Float]? = nil,
    labelSmoothing: Float = 0, reduction: Reduction = .mean
) -> (loss: Float, gradient: Tensor, probabilities: Tensor) {
    precondition(logits.rank == 2, "softmaxCrossEntropy expects logits [N, K], got \(logits.shape)")
    let (batch, classes) = (logits.shape[0], logits.shape[1])
    precondition(labels.count == batch, "softmaxCrossEntropy: \(labels.count) labels for \(batch) rows")
    precondition(labels.allSatisfy { (0..<classes).contains($0) }, "softmaxCrossEntropy: label outside 0..<\(classes)")
    precondition(labelSmoothing >= 0 && labelSmoothing <= 1, "label smoothing must be in [0, 1], got \(labelSmoothing)")
    let weights = classWeights ?? [Float](repeating: 1, count: classes)
    precondition(weights.count == classes, "softmaxCrossEntropy: \(weights.count) class weights for \(classes) classes")

    let logProbabilities = logSoftmax(logits)
    let probabilities = logProbabilities.map { Foundation.exp($0) }
    let smoothing = Double(labelSmoothing) / Double(classes)
    let totalWeight = weights.reduce(0.0) { $0 + Double($1) }
    let normalizer: Double
    switch reduction {
    case .mean: normalizer = labels.reduce(0.0) { $0 + Double(weights[$1]) }
    case .sum: normalizer = 1
    }

    var loss = 0.0
    var gradient = Tensor(zeros: logits.shape)
    logProbabilities.withUnsafeBufferPointer { logP in
        probabilities.withUnsafeBufferPointer { p in
            gradient.withUnsafeMutableBufferPointer { dz in
                for (row, label) in labels.enumerated() {
                    let base = row * classes
                    let targetWeight = (1 - Double(labelSmoothing)) * Double(weights[label])
                    loss -= targetWeight * Double(logP[base + label])
                    for k in 0..<classes {
                        loss -= smoothing * Double(weights[k]) * Double(logP[base + k])
                        let probability = Double(p[base + k])
                        var derivative = targetWeight * probability
                            + smoothing * (totalWeight * probability - Double(weights[k]))
                        if k == label { derivative -= targetWeight }
                        dz[base + k] = Float(derivative / normalizer)
                    }
                }
            }
        }
    }
    return (Float(loss / normalizer), gradient, probabilities)
}
