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
/// Statistics are summed in `Float` within each sample's run of a channel (eight lanes) and
/// across samples in `Double`. `γ` (`weight`) starts at 1, `β` (`bias`) at 0,
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
                mean.withUnsafeMutableBufferPointer { mean in
                    variance.withUnsafeMutableBufferPointer { variance in
                        guard let x = values.baseAddress else { return }
                        layout.forEachChannel { c in
                            let channelMean = layout.sum(channel: c) { run in
                                Double(VectorKernels.sum(x + run.lowerBound, count: run.count))
                            } / Double(m)
                            let squares = layout.sum(channel: c) { run in
                                Double(VectorKernels.sumOfSquaredDeviations(
                                    x + run.lowerBound, from: Float(channelMean), count: run.count))
                            }
                            mean[c] = channelMean
                            variance[c] = squares / Double(m)
                        }
                    }
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
        let (gamma, beta, scales) = (weight.value.values, bias.value.values, inverseStandardDeviation)
        return Tensor(shape: x.shape) { y in
            x.withUnsafeBufferPointer { values in
                normalized.withUnsafeMutableBufferPointer { xHat in
                    guard let x = values.baseAddress, let xHat = xHat.baseAddress, let y = y.baseAddress else { return }
                    layout.forEachChannel { c in
                        layout.forEachRun(channel: c) { run in
                            let i = run.lowerBound
                            VectorKernels.normalize(
                                x + i, mean: Float(mean[c]), inverseStandardDeviation: scales[c], gamma: gamma[c],
                                beta: beta[c], normalized: xHat + i, output: y + i, count: run.count)
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
        var sumGrad = [Double](repeating: 0, count: channels)
        var sumGradNormalized = [Double](repeating: 0, count: channels)
        let scales = (0..<channels).map { weight.value.values[$0] * inverseStandardDeviation[$0] }
        let usedBatchStatistics = usedBatchStatistics
        let gradInput = Tensor(shape: gradOutput.shape) { dx in
            gradOutput.withUnsafeBufferPointer { g in
                normalized.withUnsafeBufferPointer { xHat in
                    sumGrad.withUnsafeMutableBufferPointer { sumGrad in
                        sumGradNormalized.withUnsafeMutableBufferPointer { sumGradNormalized in
                            guard let g = g.baseAddress, let xHat = xHat.baseAddress, let dx = dx.baseAddress else { return }
                            layout.forEachChannel { c in
                                let gradTotal = layout.sum(channel: c) { run in
                                    Double(VectorKernels.sum(g + run.lowerBound, count: run.count))
                                }
                                let gradNormalizedTotal = layout.sum(channel: c) { run in
                                    Double(VectorKernels.dot(g + run.lowerBound, xHat + run.lowerBound, count: run.count))
                                }
                                sumGrad[c] = gradTotal
                                sumGradNormalized[c] = gradNormalizedTotal
                                let (meanGrad, meanGradNormalized) = (Float(gradTotal) / m, Float(gradNormalizedTotal) / m)
                                layout.forEachRun(channel: c) { run in
                                    let i = run.lowerBound
                                    if usedBatchStatistics {
                                        VectorKernels.normalizationGradient(
                                            gradOutput: g + i, normalized: xHat + i, scale: scales[c], meanGrad: meanGrad,
                                            meanGradNormalized: meanGradNormalized, into: dx + i, count: run.count)
                                    } else {
                                        VectorKernels.scale(g + i, by: scales[c], into: dx + i, count: run.count)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for c in 0..<channels {
            weight.gradient.values[c] += Float(sumGradNormalized[c])
            bias.gradient.values[c] += Float(sumGrad[c])
        }
        return gradInput
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

        /// Calls `body(c)` for every channel, channels split between ``ComputeThreads`` in parts
        /// of about ``ComputeThreads/elementsPerPart`` values or more; a channel's results do not
        /// depend on the split.
        func forEachChannel(_ body: (_ channel: Int) -> Void) {
            ComputeThreads.forEachPart(of: channels, elementsPerItem: batch * length) { _, range in
                for c in range { body(c) }
            }
        }

        /// Calls `body` with the contiguous index range of channel `c` in each sample.
        @inline(__always)
        func forEachRun(channel c: Int, _ body: (Range<Int>) -> Void) {
            for n in 0..<batch {
                let base = (n * channels + c) * length
                body(base..<(base + length))
            }
        }

        /// `Σ term(run)` over the runs of channel `c`, sample by sample.
        @inline(__always)
        func sum(channel c: Int, _ term: (Range<Int>) -> Double) -> Double {
            var total = 0.0
            forEachRun(channel: c) { run in total += term(run) }
            return total
        }
    }
}
