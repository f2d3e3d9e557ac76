import Foundation
import HDF5
import NeuralNetwork
import Randomness
import Testing

/// ST-GCN layers, blocks and both presets against PyTorch (float64) running st-gcn's own code.
///
/// `Fixtures/stgcn-reference.h5` is written by `scripts/make-stgcn-fixtures` (see its header for
/// the layout, the PyTorch → ActionLab weight mapping and the weight formula mirrored by
/// ``weightValues(parameterIndex:name:shape:)``). Each case runs one training-mode forward pass
/// (batch statistics, no dropout) and one backward pass of `L = Σ y ⊙ r`, then compares the
/// output, ∂L/∂x, every parameter gradient and the batch-norm running statistics.
///
/// Tolerance: per tensor, `max |a − e| ≤ 1e-4 · max |e|` (relative error in the max norm).
/// The bias of a convolution followed by batch normalization (`temporal.convolution.bias`,
/// `residual.convolution.bias`) has gradient exactly 0, which float32 reproduces only up to
/// rounding; there both must be below 1e-5 in absolute value.
@Suite struct STGCNReferenceTests {
    typealias Network = SpatialTemporalGraphConvolutionalNetwork

    static func fixtureFile() throws -> HDF5File {
        let url = try #require(Bundle.module.url(
            forResource: "stgcn-reference", withExtension: "h5", subdirectory: "Fixtures"))
        return try HDF5File.open(at: url, mode: .readOnly)
    }

    /// Parameter `p`'s values in row-major order (the formula of `weight_value` in the script).
    static func weightValues(parameterIndex p: Int, name: String, shape: [Int]) -> [Float] {
        let count = shape.reduce(1, *)
        return (0..<count).map { i in
            let u = Double((i * 2_654_435_761 + p * 40503 + 12345) % 4_294_967_296) / 4_294_967_296
            let centred = 2 * u - 1
            if name.hasSuffix("edgeImportance") { return Float(1 + 0.5 * centred) }
            if shape.count == 1 { return name.hasSuffix("weight") ? Float(1 + 0.25 * centred) : Float(0.1 * centred) }
            return Float(centred * (1 / Double(count / shape[0]).squareRoot()))
        }
    }

    static let vision18 = GraphLayerTests.vision18Graph()

    static func makeLayer(_ name: String) throws -> any Layer {
        var generator = SeededGenerator(seed: 0)
        switch name {
        case "gcn", "gcn-importance":
            return SpatialGraphConvolution(inChannels: 3, outChannels: 4, graph: vision18,
                                           edgeImportance: name == "gcn-importance", using: &generator)
        case "tcn-stride2":
            return TemporalConvolution(inChannels: 4, outChannels: 5, kernelSize: 9, stride: 2, using: &generator)
        case "block-first":
            return SpatialTemporalGraphBlock(inChannels: 3, outChannels: 8, graph: vision18, residual: .none,
                                             edgeImportance: true, using: &generator)
        case "block-identity":
            return SpatialTemporalGraphBlock(inChannels: 8, outChannels: 8, graph: vision18, residual: .identity,
                                             edgeImportance: true, using: &generator)
        case "block-projection":
            return SpatialTemporalGraphBlock(inChannels: 8, outChannels: 16, graph: vision18, stride: 2,
                                             residual: .projection, edgeImportance: true, using: &generator)
        default:
            let preset = try #require(Network.Preset(rawValue: name))
            return try Network(
                configuration: .init(channelCount: 3, graph: vision18, classCount: 3, blocks: preset.blocks),
                using: &generator)
        }
    }

    @Test(arguments: [
        "gcn", "gcn-importance", "tcn-stride2", "block-first", "block-identity", "block-projection",
        "stgcn", "stgcn-small",
    ])
    func matchesPyTorch(_ name: String) throws {
        let file = try Self.fixtureFile()
        defer { try? file.close() }
        let group = try file.root().openGroup(name)
        func read(_ path: String) throws -> Tensor {
            let array = try group.openDataset(path).read(Float.self)
            return Tensor(shape: array.shape, values: array.values)
        }
        let layer = try Self.makeLayer(name)
        for (p, (parameterName, parameter)) in layer.namedParameters.enumerated() {
            parameter.value = Tensor(
                shape: parameter.value.shape,
                values: Self.weightValues(parameterIndex: p, name: parameterName, shape: parameter.value.shape))
        }
        zeroGradients(layer.parameters)
        let output = layer.forward(try read("input"), training: true)
        let gradInput = layer.backward(try read("upstream"))

        expectMatch(output.values, try read("output").values, "\(name) output")
        expectMatch(gradInput.values, try read("gradients/input").values, "\(name) ∂x")
        var compared = 0
        for (parameterName, parameter) in layer.namedParameters {
            let expected = try read("gradients/" + parameterName).values
            let actual = Self.sample(parameter.gradient.values, count: expected.count)
            if parameterName.hasSuffix("convolution.bias") && !(layer is TemporalConvolution) {
                #expect((actual + expected).allSatisfy { abs($0) <= 1e-5 }, "\(name) ∂\(parameterName) must vanish")
            } else {
                expectMatch(actual, expected, "\(name) ∂\(parameterName)")
            }
            compared += 1
        }
        #expect(try group.openGroup("gradients").childNames().count == compared + 1, "every gradient compared")
        let state = Dictionary(uniqueKeysWithValues: layer.stateDictionary().map { ($0.name, $0.tensor) })
        for bufferName in try group.openGroup("buffers").childNames() {
            let actual = try #require(state[bufferName], "no tensor \(bufferName)")
            let expected = try read("buffers/" + bufferName).values
            expectMatch(Self.sample(actual.values, count: expected.count), expected, "\(name) \(bufferName)")
        }
    }

    /// All values, or the `count` entries at flat indices `(j · n) / count` that the script keeps
    /// of tensors with more than 4096 elements.
    static func sample(_ values: [Float], count: Int) -> [Float] {
        guard count < values.count else { return values }
        return (0..<count).map { values[($0 * values.count) / count] }
    }

    private func expectMatch(
        _ actual: [Float], _ expected: [Float], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual.count == expected.count, "\(what): count", sourceLocation: sourceLocation)
        let scale = expected.map { abs(Double($0)) }.max() ?? 0
        let error = zip(actual, expected).map { abs(Double($0) - Double($1)) }.max() ?? 0
        #expect(error <= 1e-4 * scale, "\(what): max error \(error) vs max |expected| \(scale)",
                sourceLocation: sourceLocation)
    }
}
