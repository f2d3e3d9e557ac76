import Foundation
import HDF5
import NeuralNetwork
import Randomness
import Testing

/// CTR-GCN's layers, blocks and both presets against PyTorch (float64) running modules that mirror
/// PYSKL's `CTRGC`, `unit_ctrgcn`, `MSTCN`, `CTRGCNBlock` and `CTRGCN`.
///
/// `Fixtures/ctrgcn-reference.h5` is written by `scripts/make-ctrgcn-fixtures` (the layout, weight
/// formula and seeds of `scripts/make-gcn-fixtures`). Each case is compared by
/// ``expectMatchesPyTorchCase(_:group:name:euclidean:parameterTolerance:toleranceBySuffix:sourceLocation:)``: output,
/// ∂L/∂x, every parameter gradient (the shared adjacency and `α` included) and the batch-norm
/// running statistics, `max |a − e| ≤ 1e-4 · max |e|` per tensor for layers and blocks, the
/// Euclidean `‖a − e‖ ≤ 1e-4 · ‖e‖` for the two presets.
@Suite struct CTRGCNReferenceTests {
    static func fixtureFile() throws -> HDF5File {
        let url = try #require(Bundle.module.url(forResource: "ctrgcn-reference", withExtension: "h5", subdirectory: "Fixtures"))
        return try HDF5File.open(at: url, mode: .readOnly)
    }

    static let vision18 = STGCNReferenceTests.vision18

    /// One refinement of subset 1 with the adjacency and `α` its unit would own (the fixture's
    /// `RefinementCase`): parameters `adjacency`, `alpha`, then `refinement.conv1` … `conv4`.
    final class RefinementCase: Layer {
        let adjacency = Parameter(name: "adjacency", value: CTRGCNReferenceTests.vision18.adjacency)
        let alpha = Parameter(name: "alpha", value: Tensor(zeros: [1]))
        let refinement: ChannelwiseTopologyRefinement

        init(inChannels: Int, outChannels: Int, using generator: inout SeededGenerator) {
            refinement = ChannelwiseTopologyRefinement(
                inChannels: inChannels, outChannels: outChannels, adjacency: adjacency, alpha: alpha, subset: 1, using: &generator)
        }

        var ownParameters: [Parameter] { [adjacency, alpha] }
        var sublayers: [(name: String, layer: any Layer)] { [("refinement", refinement)] }
        func forward(_ x: Tensor, training: Bool) -> Tensor { refinement.forward(x, training: training) }
        func backward(_ gradOutput: Tensor) -> Tensor { refinement.backward(gradOutput) }
    }

    static func makeLayer(_ name: String) throws -> any Layer {
        var generator = SeededGenerator(seed: 0)
        func block(_ inChannels: Int, _ outChannels: Int, stride: Int, residual: SpatialTemporalGraphBlock.Residual) throws -> any Layer {
            try GraphTemporalBlock(
                gcn: CTRGraphConvolution(inChannels: inChannels, outChannels: outChannels, graph: vision18, using: &generator),
                tcn: try MSG3DTemporalConvolution(inChannels: outChannels, outChannels: outChannels, stride: stride, using: &generator),
                inChannels: inChannels, outChannels: outChannels, stride: stride, residual: residual, using: &generator)
        }
        switch name {
        case "ctrgc": return RefinementCase(inChannels: 3, outChannels: 8, using: &generator)
        case "ctrgc-wide": return RefinementCase(inChannels: 24, outChannels: 16, using: &generator)
        case "ctrgcn-unit": return CTRGraphConvolution(inChannels: 3, outChannels: 8, graph: vision18, using: &generator)
        case "ctrgcn-unit-identity": return CTRGraphConvolution(inChannels: 16, outChannels: 16, graph: vision18, using: &generator)
        case "ctrgcn-unit-wide": return CTRGraphConvolution(inChannels: 24, outChannels: 16, graph: vision18, using: &generator)
        case "msg3d-tcn": return try MSG3DTemporalConvolution(inChannels: 12, outChannels: 12, using: &generator)
        case "msg3d-tcn-stride2": return try MSG3DTemporalConvolution(inChannels: 12, outChannels: 14, stride: 2, using: &generator)
        case "block-first": return try block(3, 12, stride: 1, residual: .none)
        case "block-identity": return try block(12, 12, stride: 1, residual: .identity)
        case "block-projection": return try block(12, 24, stride: 2, residual: .projection)
        default:
            let preset = try #require(CTRGCNNetwork.Preset(rawValue: name))
            return try CTRGCNNetwork(
                configuration: .init(channelCount: 3, graph: vision18, classCount: 3, blocks: preset.blocks), using: &generator)
        }
    }

    @Test(arguments: [
        "ctrgc", "ctrgc-wide", "ctrgcn-unit", "ctrgcn-unit-identity", "ctrgcn-unit-wide", "msg3d-tcn", "msg3d-tcn-stride2",
        "block-first", "block-identity", "block-projection", "ctrgcn", "ctrgcn-small",
    ])
    func matchesPyTorch(_ name: String) throws {
        let file = try Self.fixtureFile()
        defer { try? file.close() }
        let group = try file.root().openGroup(name)
        let layer = try Self.makeLayer(name)
        // In a whole network the refinement scale α's gradient is one sum over every sample,
        // channel, frame and pair of joints that cancels to about 2.5e-3; float32 rounding is
        // relative to its terms, not to that result. Computing large products in fixed blocks
        // (``BLAS``) put it 8.9e-7 (3.6e-4 of it) from PyTorch's on OpenBLAS's Zen kernel.
        let worst = try expectMatchesPyTorchCase(
            layer, group: group, name: name, euclidean: layer is CTRGCNNetwork,
            toleranceBySuffix: layer is CTRGCNNetwork ? [".alpha": 1e-3] : [:])
        print("CTRGCNReferenceTests \(name): worst relative error \(worst)")
    }

    /// The unit's adjacency starts as the graph's and `α` at 0, so a fresh unit aggregates over the
    /// graph alone: its state dictionary holds `adjacency`, `alpha`, then the subsets' convolutions.
    @Test func unitStartsAtTheGraphWithoutRefinement() {
        var generator = SeededGenerator(seed: 1)
        let unit = CTRGraphConvolution(inChannels: 3, outChannels: 8, graph: Self.vision18, using: &generator)
        #expect(unit.adjacency.value == Self.vision18.adjacency)
        #expect(unit.alpha.value.values == [0])
        #expect(unit.refinements.count == Self.vision18.partitionCount)
        let names = unit.stateDictionary().map(\.name)
        #expect(Array(names.prefix(4)) == ["adjacency", "alpha", "convs.0.conv1.weight", "convs.0.conv1.bias"])
        #expect(unit.refinements.allSatisfy { $0.relationChannels == 8 })
    }

    /// A configuration whose blocks are narrower than the four temporal branches is a thrown error.
    @Test func tooFewChannelsForTheBranchesIsAnError() {
        var generator = SeededGenerator(seed: 1)
        #expect(throws: CTRGCNNetwork.InvalidConfiguration.self) {
            try CTRGCNNetwork(
                configuration: .init(channelCount: 3, graph: Self.vision18, classCount: 3, blocks: [.init(channels: 3)]),
                using: &generator)
        }
        #expect(throws: InvalidModelConfiguration<MSG3DTemporalConvolution>.self) {
            try MSG3DTemporalConvolution(inChannels: 4, outChannels: 8, kernelSize: 4, using: &generator)
        }
    }
}
