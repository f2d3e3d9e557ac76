/// Batch normalization per channel (Ioffe & Szegedy, "Batch Normalization", ICML 2015), with the
/// exact semantics of PyTorch's `nn.BatchNorm1d` and, for rank-4 input, `nn.BatchNorm2d`.
///
/// Input `[N, C]`, `[N, C, T]` or `[N, C, T, V]`; statistics are per channel over the `m = N`,
/// `m = N·T` or `m = N·T·V` values of that channel. Output has the input's shape:
///
/// `y = γ · (x − μ) / √(σ² + ε) + β`
///
/// - Training: `μ` and `σ²` are the batch mean and the *biased* batch variance (divide by `m`).
///   The running statistics are then updated with the *unbiased* variance (divide by `m − 1`):
///   `runningMean ← (1 − momentum) · runningMean + momentum · μ`,
///   `runningVariance ← (1 − momentum) · runningVariance + momentum · σ² · m / (m − 1)`.
///   As in PyTorch, `m` must be at least 2.
/// - Evaluation: `μ` and `σ²` are `runningMean` and `runningVariance`.
///
/// Statistics are accumulated in `Double`. `γ` (`weight`) starts at 1, `β` (`bias`) at 0,
/// `runningMean` at 0 and `runningVariance` at 1.
public final class BatchNormalization: Layer {
    /// The number of channels `C`.
    public let channels: Int
    /// The weight of the newest batch in the running statistics (PyTorch's `momentum`).
    public let momentum: Float
    /// Added to the variance before the square root, `ε`.
    public let epsilon: Float
    /// The scale `γ`, shape `[C]`.
    public let weight: Parameter
    /// The shift `β`, shape `[C]`.
    public let bias: Parameter
    /// The running mean, shape `[C]` (PyTorch's `running_mean`).
    public let runningMean: Buffer
    /// The running unbiased variance, shape `[C]` (PyTorch's `running_var`).
    public let runningVariance: Buffer

    private var normalized = Tensor(zeros: [0])
    private var inverseStandardDeviation = [Float]()
    private var usedBatchStatistics = false

    /// Creates a batch normalization layer with `γ = 1`, `β = 0` and fresh running statistics.
    ///
    /// - Parameters:
    ///   - channels: The number of channels `C`.
    ///   - momentum: The weight of each new batch in the running statistics (PyTorch: 0.1).
    ///   - epsilon: Added to the variance for numerical stability (PyTorch: 1e-5).
    public init(channels: Int, momentum: Float = 0.1, epsilon: Float = 1e-5) {
        precondition(channels > 0, "BatchNormalization needs a positive channel count")
        self.channels = channels
        self.momentum = momentum
        self.epsilon = epsilon
        weight = Parameter(name: "weight", value: Tensor(shape: [channels], repeating: 1))
        bias = Parameter(name: "bias", value: Tensor(zeros: [channels]))
        runningMean = Buffer(name: "runningMean", value: Tensor(zeros: [channels]))
        runningVariance = Buffer(name: "runningVariance", value: Tensor(shape: [channels], repeating: 1))
    }

    public var ownParameters: [Parameter] { [weight, bias] }
    public var ownBuffers: [Buffer] { [runningMean, runningVariance] }

    /// Normalizes a batch, updating the running statistics in training mode.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C]`, `[N, C, T]` or `[N, C, T, V]`.
    ///   - training: Whether to use (and record) batch statistics rather than running ones.
    /// - Returns: The normalized batch, same shape as `x`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition((2...4).contains(x.rank) && x.shape[1] == channels,
                     "BatchNormalization expects [N, \(channels)], [N, \(channels), T] or [N, \(channels), T, V], got \(x.shape)")
        let layout = Layout(x.shape)
        let m = layout.batch * layout.length
        var mean = [Double](repeating: 0, count: channels)
        var variance = [Double](repeating: 0, count: channels)
        if training {
            precondition(m > 1, "BatchNormalization needs more than one value per channel in training, got \(x.shape)")
            x.withUnsafeBufferPointer { values in
                for c in 0..<channels {
                    let channelMean = layout.sum(channel: c) { i in Double(values[i]) } / Double(m)
                    let squares = layout.sum(channel: c) { i in
                        let deviation = Double(values[i]) - channelMean
                        return deviation * deviation
                    }
                    mean[c] = channelMean
                    variance[c] = squares / Double(m)
                }
            }
            let keep = 1 - Double(momentum)
            for c in 0..<channels {
                runningMean.value.values[c] = Float(keep * Double(runningMean.value.values[c]) + Double(momentum) * mean[c])
                let unbiased = variance[c] * Double(m) / Double(m - 1)
                runningVariance.value.values[c] = Float(
                    keep * Double(runningVariance.value.values[c]) + Double(momentum) * unbiased)
            }
        } else {
            mean = runningMean.value.values.map(Double.init)
            variance = runningVariance.value.values.map(Double.init)
        }
        usedBatchStatistics = training
        inverseStandardDeviation = variance.map { Float(1 / ($0 + Double(epsilon)).squareRoot()) }

        // x̂ is kept for the backward pass; its storage is reused when the shape repeats.
        if normalized.shape != x.shape { normalized = Tensor(zeros: x.shape) }
        return Tensor(shape: x.shape) { y in
            x.withUnsafeBufferPointer { values in
                normalized.withUnsafeMutableBufferPointer { xHat in
                    for c in 0..<channels {
                        let (mu, scale) = (Float(mean[c]), inverseStandardDeviation[c])
                        let (gamma, beta) = (weight.value.values[c], bias.value.values[c])
                        layout.forEachRun(channel: c) { range in
                            for i in range {
                                let normal = (values[i] - mu) * scale
                                xHat[i] = normal
                                y[i] = gamma * normal + beta
                            }
                        }
                    }
                }
            }
        }
    }

    /// Accumulates ∂γ and ∂β and returns ∂x for the last forward call.
    ///
    /// With `x̂` the normalized input, `g = ∂loss/∂y` and sums over the `m` values of a channel:
    /// `∂γ = Σ g·x̂`, `∂β = Σ g`; in training mode (batch statistics depend on `x`)
    /// `∂x = γ / (m √(σ² + ε)) · (m·g − Σ g − x̂ · Σ g·x̂)` (Ioffe & Szegedy 2015, §3), and in
    /// evaluation mode `∂x = γ · g / √(σ² + ε)`.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, same shape as the last input.
    /// - Returns: ∂loss/∂x.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == normalized.shape,
                     "BatchNormalization.backward: gradient shape \(gradOutput.shape), expected \(normalized.shape)")
        let layout = Layout(gradOutput.shape)
        let m = Float(layout.batch * layout.length)
        return Tensor(shape: gradOutput.shape) { dx in
            gradOutput.withUnsafeBufferPointer { g in
                normalized.withUnsafeBufferPointer { xHat in
                    for c in 0..<channels {
                        let sumGrad = layout.sum(channel: c) { i in Double(g[i]) }
                        let sumGradNormalized = layout.sum(channel: c) { i in Double(g[i]) * Double(xHat[i]) }
                        weight.gradient.values[c] += Float(sumGradNormalized)
                        bias.gradient.values[c] += Float(sumGrad)
                        let scale = weight.value.values[c] * inverseStandardDeviation[c]
                        if usedBatchStatistics {
                            let (meanGrad, meanGradNormalized) = (Float(sumGrad) / m, Float(sumGradNormalized) / m)
                            layout.forEachRun(channel: c) { range in
                                for i in range { dx[i] = scale * (g[i] - meanGrad - xHat[i] * meanGradNormalized) }
                            }
                        } else {
                            layout.forEachRun(channel: c) { range in
                                for i in range { dx[i] = scale * g[i] }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Index arithmetic for `[N, C]` (length 1), `[N, C, T]` and `[N, C, T, V]` (length `T·V`) buffers.
    private struct Layout {
        let batch: Int
        let channels: Int
        let length: Int

        init(_ shape: [Int]) {
            batch = shape[0]
            channels = shape[1]
            length = shape.dropFirst(2).reduce(1, *)
        }

        /// Calls `body` with the contiguous index range of channel `c` in each sample.
        @inline(__always)
        func forEachRun(channel c: Int, _ body: (Range<Int>) -> Void) {
            for n in 0..<batch {
                let base = (n * channels + c) * length
                body(base..<(base + length))
            }
        }

        /// `Σ term(i)` over the flat indices of channel `c`, in a fixed order: four interleaved
        /// partial sums per sample run (so that the additions do not wait on each other), added
        /// together at the end of each run.
        @inline(__always)
        func sum(channel c: Int, _ term: (Int) -> Double) -> Double {
            var total = 0.0
            forEachRun(channel: c) { range in
                var partial = (0.0, 0.0, 0.0, 0.0)
                var i = range.lowerBound
                while i + 4 <= range.upperBound {
                    partial.0 += term(i)
                    partial.1 += term(i + 1)
                    partial.2 += term(i + 2)
                    partial.3 += term(i + 3)
                    i += 4
                }
                while i < range.upperBound {
                    partial.0 += term(i)
                    i += 1
                }
                total += (partial.0 + partial.1) + (partial.2 + partial.3)
            }
            return total
        }
    }
}
