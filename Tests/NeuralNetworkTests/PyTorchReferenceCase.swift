import HDF5
import NeuralNetwork
import Testing

/// One case of a golden PyTorch fixture written by `scripts/make-gcn-fixtures` or
/// `scripts/make-ctrgcn-fixtures` (the layout and weight formula of `scripts/make-stgcn-fixtures`).
///
/// The layer gets the formula's weights (``STGCNReferenceTests/weightValues(parameterIndex:name:shape:)``),
/// runs one training-mode forward pass and one backward pass of `L = Σ y ⊙ r`, and its output,
/// ∂L/∂x, every parameter gradient and every batch-norm running statistic are compared with the
/// case's datasets by ``expectReferenceMatch(_:_:_:euclidean:tolerance:sourceLocation:)``. A
/// convolution bias followed by batch normalization has gradient exactly 0 in training mode; where
/// PyTorch's float64 gradient is below 1e-9, ActionLab's must be below 1e-4 in absolute value.
///
/// - Parameters:
///   - layer: The layer, built with the case's configuration.
///   - group: The case's group in the fixture file.
///   - name: The case's name, for messages.
///   - euclidean: Whether to compare by the Euclidean norm (whole presets) instead of the maximum.
///   - parameterTolerance: The relative tolerance of parameter gradients.
///   - toleranceBySuffix: A larger relative tolerance for the gradients of parameters whose name
///     ends with the key (for a gradient that is a long sum cancelling to a small value).
/// - Returns: The worst relative error seen (error over scale), for reports.
@discardableResult
func expectMatchesPyTorchCase(
    _ layer: any Layer, group: HDF5Group, name: String, euclidean: Bool, parameterTolerance: Double = 1e-4,
    toleranceBySuffix: [String: Double] = [:], sourceLocation: SourceLocation = #_sourceLocation
) throws -> Double {
    func read(_ path: String) throws -> [Float] { try group.openDataset(path).read(Float.self).values }
    for (p, (parameterName, parameter)) in layer.namedParameters.enumerated() {
        parameter.value = Tensor(
            shape: parameter.value.shape,
            values: STGCNReferenceTests.weightValues(parameterIndex: p, name: parameterName, shape: parameter.value.shape))
    }
    zeroGradients(layer.parameters)
    let inputArray = try group.openDataset("input").read(Float.self)
    let upstreamArray = try group.openDataset("upstream").read(Float.self)
    let output = layer.forward(Tensor(shape: inputArray.shape, values: inputArray.values), training: true)
    let gradInput = layer.backward(Tensor(shape: upstreamArray.shape, values: upstreamArray.values))

    var worst = 0.0
    worst = max(worst, expectReferenceMatch(output.values, try read("output"), "\(name) output", euclidean: euclidean,
                                            sourceLocation: sourceLocation))
    worst = max(worst, expectReferenceMatch(gradInput.values, try read("gradients/input"), "\(name) ∂x", euclidean: euclidean,
                                            sourceLocation: sourceLocation))
    var compared = 0
    for (parameterName, parameter) in layer.namedParameters {
        let expected = try read("gradients/" + parameterName)
        let actual = STGCNReferenceTests.sample(parameter.gradient.values, count: expected.count)
        if expected.allSatisfy({ abs($0) < 1e-9 }) {
            #expect(actual.allSatisfy { abs($0) <= 1e-4 }, "\(name) ∂\(parameterName) must vanish, max \(actual.map(abs).max() ?? 0)",
                    sourceLocation: sourceLocation)
        } else {
            let tolerance = toleranceBySuffix.first { parameterName.hasSuffix($0.key) }?.value ?? parameterTolerance
            worst = max(worst, expectReferenceMatch(actual, expected, "\(name) ∂\(parameterName)", euclidean: euclidean,
                                                    tolerance: tolerance, sourceLocation: sourceLocation))
        }
        compared += 1
    }
    #expect(try group.openGroup("gradients").childNames().count == compared + 1, "every gradient compared",
            sourceLocation: sourceLocation)
    let state = Dictionary(uniqueKeysWithValues: layer.stateDictionary().map { ($0.name, $0.tensor) })
    let buffers = try group.openGroup("buffers").childNames()
    #expect(buffers.count == layer.stateDictionary().count - layer.namedParameters.count, "every buffer compared",
            sourceLocation: sourceLocation)
    for bufferName in buffers {
        let actual = try #require(state[bufferName], "no tensor \(bufferName)", sourceLocation: sourceLocation)
        let expected = try read("buffers/" + bufferName)
        worst = max(worst, expectReferenceMatch(
            STGCNReferenceTests.sample(actual.values, count: expected.count), expected, "\(name) \(bufferName)",
            euclidean: euclidean, sourceLocation: sourceLocation))
    }
    return worst
}

/// `max |a − e| ≤ tolerance · max |e|`, or with `euclidean` the Euclidean `‖a − e‖ ≤ tolerance · ‖e‖`
/// (for whole presets, whose float32 error grows through many blocks of training-mode batch
/// normalization on small batches, and where a ReLU input within rounding of 0 among ~10⁶ moves a
/// few entries).
///
/// - Returns: The relative error, error over scale (0 when both are 0).
@discardableResult
func expectReferenceMatch(_ actual: [Float], _ expected: [Float], _ what: String, euclidean: Bool,
                          tolerance: Double = 1e-4, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
    #expect(actual.count == expected.count, "\(what): count", sourceLocation: sourceLocation)
    let differences = zip(actual, expected).map { abs(Double($0) - Double($1)) }
    let (error, scale) = euclidean
        ? (differences.reduce(0) { $0 + $1 * $1 }.squareRoot(), expected.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot())
        : (differences.max() ?? 0, expected.map { abs(Double($0)) }.max() ?? 0)
    #expect(error <= tolerance * scale, "\(what): error \(error) vs \(scale) (\(euclidean ? "Euclidean" : "max") norm)",
            sourceLocation: sourceLocation)
    return scale > 0 ? error / scale : error
}
