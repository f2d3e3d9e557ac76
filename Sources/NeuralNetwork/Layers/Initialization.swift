import Randomness

/// PyTorch's default initialization of `Linear` and `Conv1d` parameters.
enum Initialization {
    /// A tensor of `shape` drawn from U(−1/√fanIn, 1/√fanIn), in row-major order.
    ///
    /// PyTorch initializes weights with `kaiming_uniform_(a=√5)`, whose bound is
    /// `gain · √(3 / fan_in)` with `gain = √(2 / (1 + a²)) = √(1/3)`, that is `1/√fan_in`; biases
    /// use the same bound (`torch/nn/modules/linear.py`, `conv.py`, `reset_parameters`).
    /// The values differ from PyTorch's, whose generator is another one; the distribution is the same.
    ///
    /// - Parameters:
    ///   - shape: The tensor's shape.
    ///   - fanIn: Inputs feeding one output: `in_features`, or `in_channels · kernel_size`.
    ///   - generator: The source of randomness, advanced by `shape.reduce(1, *)` draws.
    static func uniformFanIn(
        shape: [Int], fanIn: Int, using generator: inout SeededGenerator
    ) -> Tensor {
        precondition(fanIn > 0, "fan-in must be positive, got \(fanIn)")
        let bound = 1 / Float(fanIn).squareRoot()
        var tensor = Tensor(zeros: shape)
        tensor.withUnsafeMutableBufferPointer { values in
            for i in 0..<values.count {
                values[i] = generator.nextUniform(from: -bound, to: bound)
            }
        }
        return tensor
    }
}

/// Adds `bias[o]` to every element of channel `o` of a `[N, O, inner]` buffer (inner ≥ 1).
///
/// Large buffers are split by sample between ``ComputeThreads``; each element gets the same
/// single addition at every thread count.
func addChannelBias(
    _ bias: Tensor, to output: inout Tensor, batch: Int, channels: Int, inner: Int
) {
    bias.withUnsafeBufferPointer { b in
        output.withUnsafeMutableBufferPointer { y in
            guard let y = y.baseAddress, let b = b.baseAddress else { return }
            ComputeThreads.forEachPart(of: batch, elementsPerItem: channels * inner) { _, samples in
                for n in samples {
                    for o in 0..<channels {
                        VectorKernels.add(constant: b[o], to: y + (n * channels + o) * inner, count: inner)
                    }
                }
            }
        }
    }
}

/// Adds to `gradient[o]` the sum of channel `o` of a `[N, O, inner]` gradient (∂loss/∂bias).
///
/// Large gradients are split by channel between ``ComputeThreads``; each channel is summed
/// sample by sample in order, so the result is the same at every thread count.
func accumulateChannelSums(
    of gradOutput: Tensor, into gradient: inout Tensor, batch: Int, channels: Int, inner: Int
) {
    gradOutput.withUnsafeBufferPointer { g in
        gradient.withUnsafeMutableBufferPointer { db in
            guard let g = g.baseAddress, let db = db.baseAddress else { return }
            ComputeThreads.forEachPart(of: channels, elementsPerItem: batch * inner) { _, range in
                for o in range {
                    var total: Float = 0
                    for n in 0..<batch {
                        total += VectorKernels.sum(g + (n * channels + o) * inner, count: inner)
                    }
                    db[o] += total
                }
            }
        }
    }
}
