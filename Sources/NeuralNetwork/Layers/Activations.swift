import Randomness

/// The rectified linear unit `y = max(x, 0)`, element-wise on any shape (PyTorch's `nn.ReLU`).
///
/// The derivative at 0 is taken as 0, as in PyTorch.
public final class ReLU: Layer {
    private var input = Tensor(zeros: [0])

    /// Creates the activation; it has no parameters.
    public init() {}

    /// Returns `max(x, 0)` element-wise; `x` may have any shape.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        input = x
        return Tensor(shape: x.shape) { y in
            x.withUnsafeBufferPointer { values in
                guard let source = values.baseAddress, let target = y.baseAddress else { return }
                ComputeThreads.forEachPart(of: y.count, minimumSize: ComputeThreads.elementsPerPart, alignment: 64) { _, range in
                    VectorKernels.relu(source + range.lowerBound, into: target + range.lowerBound, count: range.count)
                }
            }
        }
    }

    /// Returns `g` where the last input was positive and 0 elsewhere.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == input.shape, "ReLU.backward: gradient shape \(gradOutput.shape)")
        return Tensor(shape: gradOutput.shape) { dx in
            input.withUnsafeBufferPointer { x in
                gradOutput.withUnsafeBufferPointer { g in
                    guard let x = x.baseAddress, let g = g.baseAddress, let dx = dx.baseAddress else { return }
                    ComputeThreads.forEachPart(of: gradOutput.count, minimumSize: ComputeThreads.elementsPerPart, alignment: 64) { _, range in
                        let i = range.lowerBound
                        VectorKernels.reluGradient(input: x + i, gradOutput: g + i, into: dx + i, count: range.count)
                    }
                }
            }
        }
    }
}

/// Inverted dropout (Srivastava et al., JMLR 2014; PyTorch's `nn.Dropout`).
///
/// In training, each element is kept with probability `1 − rate` and scaled by `1 / (1 − rate)`,
/// otherwise set to 0; in evaluation the layer is the identity. The mask comes from
/// ``generator``: element `i` (row-major) is kept when the `i`-th ``SeededGenerator/nextUniform()``
/// is at least `rate`. Set ``generator`` before each batch (for example with
/// ``Layer/seedDropout(seed:epoch:batch:)``) so that masks depend only on the seed.
public final class Dropout: Layer {
    /// The probability of zeroing an element, in `[0, 1)`.
    public let rate: Float
    /// The source of the dropout masks, advanced by one draw per element per training forward.
    public var generator: SeededGenerator

    private var mask = Tensor(zeros: [0])
    private var maskApplied = false

    /// Creates a dropout layer.
    ///
    /// - Parameters:
    ///   - rate: The probability of zeroing an element, in `[0, 1)`.
    ///   - generator: The initial mask generator (replace it per batch for reproducible runs).
    public init(rate: Float, generator: SeededGenerator = SeededGenerator(seed: 0)) {
        precondition(rate >= 0 && rate < 1, "Dropout rate must be in [0, 1), got \(rate)")
        self.rate = rate
        self.generator = generator
    }

    /// Applies a fresh mask in training mode; returns `x` unchanged otherwise. Any shape.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        maskApplied = training && rate > 0
        guard maskApplied else { return x }
        let scale = 1 / (1 - rate)
        mask = Tensor(zeros: x.shape)
        mask.withUnsafeMutableBufferPointer { keep in
            for i in 0..<keep.count {
                keep[i] = generator.nextUniform() >= rate ? scale : 0
            }
        }
        return Self.multiply(x, mask)
    }

    /// Multiplies `g` by the last mask (including its `1 / (1 − rate)` scale).
    public func backward(_ gradOutput: Tensor) -> Tensor {
        guard maskApplied else { return gradOutput }
        return Self.multiply(gradOutput, mask)
    }

    private static func multiply(_ a: Tensor, _ b: Tensor) -> Tensor {
        var result = a
        result.multiply(by: b)
        return result
    }
}

extension Layer {
    /// Gives every ``Dropout`` layer in this layer's tree its own generator for one batch.
    ///
    /// The dropout layer at path `P` (e.g. `"blocks.1.dropout"`) gets
    /// `SeededGenerator(seed: seed, purpose: "dropout:" + P, epoch: epoch, index: batch)`.
    ///
    /// - Parameters:
    ///   - seed: The trial's root seed.
    ///   - epoch: The current epoch.
    ///   - batch: The index of the batch within the epoch.
    public func seedDropout(seed: UInt64, epoch: Int, batch: Int) {
        visitLayers { prefix, layer in
            guard let dropout = layer as? Dropout else { return }
            let path = prefix.hasSuffix(".") ? String(prefix.dropLast()) : prefix
            dropout.generator = SeededGenerator(seed: seed, purpose: "dropout:" + path, epoch: epoch, index: batch)
        }
    }
}
