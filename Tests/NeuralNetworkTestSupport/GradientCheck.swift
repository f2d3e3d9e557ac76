import NeuralNetwork
import Randomness
import Testing

/// Whether `a` and `b` agree within `absolute + relative · max(|a|, |b|)`.
public func isClose(_ a: Double, _ b: Double, relative: Double = 1e-5, absolute: Double = 1e-6) -> Bool {
    abs(a - b) <= absolute + relative * max(abs(a), abs(b))
}

/// Expects element-wise agreement of two arrays within the stated tolerance.
public func expectClose(
    _ actual: [Float], _ expected: [Float], relative: Double = 1e-5, absolute: Double = 1e-6,
    _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(what): count", sourceLocation: sourceLocation)
    for (index, (a, e)) in zip(actual, expected).enumerated()
    where !isClose(Double(a), Double(e), relative: relative, absolute: absolute) {
        Issue.record("\(what)[\(index)]: \(a) vs expected \(e)", sourceLocation: sourceLocation)
    }
}

/// A tensor of uniform values in `[-1, 1)`, or with magnitudes in `[margin, 1 + margin)` when
/// `margin > 0` (keeps inputs away from ReLU's kink at 0 for finite differences).
public func randomTensor(_ shape: [Int], seed: UInt64, margin: Float = 0) -> Tensor {
    var generator = SeededGenerator(seed: seed, purpose: "test-tensor")
    // Built as an array first. (Writing `tensor.values[i]` element by element from this module
    // once copied all of `values` on every write, while `values` had a `didSet` observer:
    // 552,960 values took 29 s, nearly all in `memmove`, against 0.24 s this way.)
    let values = (0..<shape.reduce(1, *)).map { _ -> Float in
        let u = generator.nextUniform(from: -1, to: 1)
        return margin > 0 ? (u < 0 ? u - margin : u + margin) : u
    }
    return Tensor(shape: shape, values: values)
}

/// Finite-difference gradient check of a layer (micrograd's habit, here against central
/// differences instead of PyTorch).
///
/// The scalar loss is `L = Σ y ⊙ r` with a fixed random `r`, so ∂L/∂y = r. The analytical
/// gradients from one `backward(r)` are compared with `(L(θ + ε) − L(θ − ε)) / 2ε`, `L` summed in
/// `Double` from the `Float` outputs. `prepare` runs before every forward (e.g. to reseed dropout).
/// For large models, `inputIndices` and `entriesPerParameter` check an evenly spaced sample of
/// the input's and of each checked parameter's entries instead of all of them.
public func checkGradients(
    of layer: some Layer, input: Tensor, training: Bool = true,
    parameterIndices: [Int]? = nil, inputIndices: [Int]? = nil, entriesPerParameter: Int? = nil, epsilon: Float = 1e-2,
    relative: Double = 1e-2, absolute: Double = 2e-3,
    prepare: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    prepare()
    let output = layer.forward(input, training: training)
    let upstream = randomTensor(output.shape, seed: 99)
    func loss(_ x: Tensor) -> Double {
        prepare()
        let y = layer.forward(x, training: training)
        return zip(y.values, upstream.values).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
    }
    zeroGradients(layer.parameters)
    prepare()
    _ = layer.forward(input, training: training)
    let gradInput = layer.backward(upstream)
    let parameterGradients = layer.parameters.map(\.gradient)

    func expectMatch(_ analytical: Float, _ numerical: Double, _ what: String) {
        #expect(isClose(Double(analytical), numerical, relative: relative, absolute: absolute),
                "\(what): analytical \(analytical) vs numerical \(numerical)", sourceLocation: sourceLocation)
    }
    for i in inputIndices ?? Array(0..<input.count) {
        var plus = input, minus = input
        plus.values[i] += epsilon
        minus.values[i] -= epsilon
        expectMatch(gradInput.values[i], (loss(plus) - loss(minus)) / (2 * Double(epsilon)), "∂x[\(i)]")
    }
    let parameters = layer.parameters
    for p in parameterIndices ?? Array(parameters.indices) {
        let parameter = parameters[p]
        let count = parameter.value.count
        let entries = entriesPerParameter.map { sample in (0..<min(sample, count)).map { $0 * count / min(sample, count) } }
        for i in entries ?? Array(0..<count) {
            let original = parameter.value.values[i]
            parameter.value.values[i] = original + epsilon
            let lossPlus = loss(input)
            parameter.value.values[i] = original - epsilon
            let lossMinus = loss(input)
            parameter.value.values[i] = original
            expectMatch(parameterGradients[p].values[i], (lossPlus - lossMinus) / (2 * Double(epsilon)),
                        "∂\(parameter.name)[\(i)]")
        }
    }
}
