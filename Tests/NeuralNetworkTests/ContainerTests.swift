import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// `Residual` and `Branches`: values worked by hand, finite-difference checks of compositions of
/// existing layers (see `checkGradients` for the loss and the tolerances), state-dictionary names
/// and round trips, and an ST-GCN block rebuilt from the containers, bit for bit.
@Suite struct ContainerTests {
    /// A 1×1 convolution `1 → weights.count` channels with the given weights and biases.
    static func pointwise(weights: [Float], biases: [Float]) -> TemporalConvolution {
        var generator = SeededGenerator(seed: 0)
        let layer = TemporalConvolution(
            inChannels: 1, outChannels: weights.count, kernelSize: 1, padding: .explicit(0), using: &generator)
        layer.weight.value = Tensor(shape: [weights.count, 1, 1], values: weights)
        layer.bias?.value = Tensor(shape: [biases.count], values: biases)
        return layer
    }

    // MARK: Values worked by hand

    /// `y = (2x + 0.5) + x`; `∂x = 2g + g`, `∂w = Σ g·x`, `∂b = Σ g`.
    @Test func identityResidualByHand() {
        let body = Self.pointwise(weights: [2], biases: [0.5])
        let residual = Residual(body: body)
        let x = Tensor(shape: [1, 1, 3], values: [-1, 0.5, 2])
        #expect(residual.forward(x, training: true) == Tensor(shape: [1, 1, 3], values: [-2.5, 2, 6.5]))
        zeroGradients(residual.parameters)
        let gradInput = residual.backward(Tensor(shape: [1, 1, 3], values: [1, 2, 3]))
        #expect(gradInput == Tensor(shape: [1, 1, 3], values: [3, 6, 9]))
        #expect(body.weight.gradient.values == [6])
        #expect(body.bias?.gradient.values == [6])
    }

    /// `y = (2x + 0.5) + (−x + 1)`; `∂x = 2g − g`.
    @Test func projectionResidualByHand() {
        let residual = Residual(
            body: Self.pointwise(weights: [2], biases: [0.5]), shortcut: Self.pointwise(weights: [-1], biases: [1]))
        let x = Tensor(shape: [1, 1, 3], values: [-1, 0.5, 2])
        #expect(residual.forward(x, training: true) == Tensor(shape: [1, 1, 3], values: [0.5, 2, 3.5]))
        #expect(residual.backward(Tensor(shape: [1, 1, 3], values: [1, 2, 3])) == Tensor(shape: [1, 1, 3], values: [1, 2, 3]))
    }

    /// Branch `a` gives channels `x` and `1 − x`, branch `b` gives `max(x, 0)`: per sample the
    /// output is `[a₀, a₁, b₀]`; the gradient's channels 0–1 go to `a`, channel 2 to `b`.
    @Test func branchesByHand() {
        let convolution = Self.pointwise(weights: [1, -1], biases: [0, 1])
        let branches = Branches([("a", convolution), ("b", ReLU())])
        let x = Tensor(shape: [2, 1, 2], values: [-1, 2, 3, -4])
        #expect(branches.forward(x, training: true) == Tensor(
            shape: [2, 3, 2], values: [-1, 2, 2, -1, 0, 2, 3, -4, -2, 5, 3, 0]))
        zeroGradients(branches.parameters)
        let gradient = Tensor(shape: [2, 3, 2], values: (1...12).map(Float.init))
        // Sample 0: a gives 1·[1, 2] − 1·[3, 4] = [−2, −2], b passes [5, 6] where x > 0: [0, 6].
        // Sample 1: a gives [7, 8] − [9, 10] = [−2, −2], b passes [11, 12] where x > 0: [11, 0].
        #expect(branches.backward(gradient) == Tensor(shape: [2, 1, 2], values: [-2, 4, 9, -2]))
        // ∂W[o] = Σ g[o]·x: o = 0: (−1 + 4) + (21 − 32) = −8; o = 1: (−3 + 8) + (27 − 40) = −8.
        #expect(convolution.weight.gradient.values == [-8, -8])
        #expect(convolution.bias?.gradient.values == [18, 26])
    }

    @Test func positionalBranchNamesAndShapes() {
        var generator = SeededGenerator(seed: 1)
        let branches = Branches([
            TemporalConvolution(inChannels: 2, outChannels: 3, kernelSize: 3, using: &generator),
            TemporalConvolution(inChannels: 2, outChannels: 1, kernelSize: 3, dilation: 2, using: &generator),
        ])
        #expect(branches.branches.map(\.name) == ["0", "1"])
        #expect(branches.forward(randomTensor([4, 2, 9, 5], seed: 2), training: false).shape == [4, 4, 9, 5])
        #expect(branches.stateDictionary().map(\.name) == ["0.weight", "0.bias", "1.weight", "1.bias"])
    }

    /// Branches large enough to be copied in several parts (64 samples of 8 × 60 × 18 values,
    /// 2 threads), each branch computing something else: every output channel is its branch's
    /// output channel, and every part of the split gradient reaches its branch, so ∂x equals the
    /// sum of the branches' own backward passes, bit for bit.
    @Test func largeBranchesCopyEverySampleOfEveryBranch() {
        var generator = SeededGenerator(seed: 5)
        let first = ReLU()
        let convolution = TemporalConvolution(inChannels: 3, outChannels: 2, kernelSize: 1, using: &generator)
        let last = TemporalConvolution(inChannels: 3, outChannels: 3, kernelSize: 3, using: &generator)
        let branches = Branches([("first", first), ("convolution", convolution), ("last", last)])
        let x = randomTensor([64, 3, 60, 18], seed: 6)
        let gradient = randomTensor([64, 8, 60, 18], seed: 7)
        let (y, gradInput) = ComputeThreads.withCount(2) {
            (branches.forward(x, training: true), branches.backward(gradient))
        }
        #expect(y.shape == [64, 8, 60, 18])
        let outputs = [first.forward(x, training: true), convolution.forward(x, training: true), last.forward(x, training: true)]
        let plane = 60 * 18
        var expectedY = [Float](), branchGradients: [Tensor] = []
        for n in 0..<64 {
            for output in outputs {
                let block = output.shape[1] * plane
                expectedY += output.values[(n * block)..<((n + 1) * block)]
            }
        }
        var channelOffset = 0
        for (layer, output) in zip([first, convolution, last] as [any Layer], outputs) {
            let block = output.shape[1] * plane
            var part = [Float]()
            for n in 0..<64 {
                let start = (n * 8 + channelOffset) * plane
                part += gradient.values[start..<(start + block)]
            }
            branchGradients.append(layer.backward(Tensor(shape: output.shape, values: part)))
            channelOffset += output.shape[1]
        }
        #expect(y.values.map(\.bitPattern) == expectedY.map(\.bitPattern))
        var expectedGradient = branchGradients[0]
        for branchGradient in branchGradients.dropFirst() { expectedGradient.add(branchGradient) }
        #expect(gradInput.values.map(\.bitPattern) == expectedGradient.values.map(\.bitPattern))
    }

    // MARK: Finite differences

    struct ShapeCase: Sendable, CustomTestStringConvertible {
        var shape: [Int]
        var testDescription: String { "input \(shape)" }
    }

    /// `[N, C, T]` (a TCN's batches) and `[N, C, T, V]` (a graph model's frames).
    static let shapes = [ShapeCase(shape: [3, 3, 7]), ShapeCase(shape: [2, 3, 7, 2])]

    /// Convolution `k` with the given stride and dilation, then batch normalization.
    static func convolutionBatchNorm(
        _ inChannels: Int, _ outChannels: Int, kernelSize: Int, stride: Int = 1, dilation: Int = 1,
        using generator: inout SeededGenerator
    ) -> Sequential {
        let padding: TemporalConvolution.Padding = kernelSize == 1 ? .explicit(0) : .same
        let normalization = BatchNormalization(channels: outChannels)
        normalization.weight.value = randomTensor([outChannels], seed: generator.next(), margin: 0.5)
        normalization.bias.value = randomTensor([outChannels], seed: generator.next())
        return Sequential([
            ("convolution", TemporalConvolution(
                inChannels: inChannels, outChannels: outChannels, kernelSize: kernelSize, stride: stride,
                padding: padding, dilation: dilation, using: &generator)),
            ("batchNorm", normalization),
        ])
    }

    @Test(arguments: shapes)
    func identityResidualGradients(_ input: ShapeCase) {
        var generator = SeededGenerator(seed: 3)
        let residual = Residual(body: Self.convolutionBatchNorm(3, 3, kernelSize: 3, using: &generator))
        checkGradients(of: residual, input: randomTensor(input.shape, seed: 4))
    }

    @Test(arguments: shapes)
    func projectionResidualGradients(_ input: ShapeCase) {
        var generator = SeededGenerator(seed: 5)
        let residual = Residual(
            body: Self.convolutionBatchNorm(3, 4, kernelSize: 3, stride: 2, using: &generator),
            shortcut: Self.convolutionBatchNorm(3, 4, kernelSize: 1, stride: 2, using: &generator))
        checkGradients(of: residual, input: randomTensor(input.shape, seed: 6))
    }

    /// ST-GCN++'s temporal branches without the max pooling: kernel 3 with dilations 1 and 2,
    /// and a 1×1 convolution, concatenated.
    @Test(arguments: shapes)
    func branchesGradients(_ input: ShapeCase) {
        var generator = SeededGenerator(seed: 7)
        let branches = Branches([
            ("dilation1", TemporalConvolution(inChannels: 3, outChannels: 2, kernelSize: 3, using: &generator)),
            ("dilation2", TemporalConvolution(inChannels: 3, outChannels: 2, kernelSize: 3, dilation: 2, using: &generator)),
            ("pointwise", TemporalConvolution(
                inChannels: 3, outChannels: 1, kernelSize: 1, padding: .explicit(0), using: &generator)),
        ])
        checkGradients(of: branches, input: randomTensor(input.shape, seed: 8))
    }

    /// Branches inside a residual body, then batch normalization over the concatenation.
    @Test(arguments: shapes)
    func nestedContainersGradients(_ input: ShapeCase) {
        var generator = SeededGenerator(seed: 9)
        let branches = Branches([
            ("dilation1", Self.convolutionBatchNorm(3, 2, kernelSize: 3, using: &generator)),
            ("dilation2", Self.convolutionBatchNorm(3, 1, kernelSize: 3, dilation: 2, using: &generator)),
        ])
        let normalization = BatchNormalization(channels: 3)
        normalization.weight.value = Tensor(shape: [3], values: [1.2, -0.7, 0.9])
        let residual = Residual(body: Sequential([("branches", branches), ("batchNorm", normalization)]))
        checkGradients(of: residual, input: randomTensor(input.shape, seed: 10))
    }

    // MARK: State dictionary

    /// st-gcn's names (`temporal.*`, `residual.convolution.*`, `residual.batchNorm.*`) come from the
    /// child names given.
    static func namedResidual(seed: UInt64) -> Residual {
        var generator = SeededGenerator(seed: seed)
        return Residual(
            body: convolutionBatchNorm(2, 3, kernelSize: 3, using: &generator), bodyName: "temporal",
            shortcut: convolutionBatchNorm(2, 3, kernelSize: 1, using: &generator), shortcutName: "residual")
    }

    @Test func residualStateDictionaryNames() {
        let tensors = ["convolution.weight", "convolution.bias", "batchNorm.weight", "batchNorm.bias",
                       "batchNorm.runningMean", "batchNorm.runningVariance"]
        #expect(Self.namedResidual(seed: 1).stateDictionary().map(\.name)
            == tensors.map { "temporal." + $0 } + tensors.map { "residual." + $0 })
        var generator = SeededGenerator(seed: 2)
        let identity = Residual(body: Self.convolutionBatchNorm(2, 2, kernelSize: 3, using: &generator))
        #expect(identity.sublayers.map(\.name) == ["body"])
        #expect(identity.stateDictionary().map(\.name) == tensors.map { "body." + $0 })
    }

    @Test func firstNonFiniteTensorIsNamedInStateDictionaryOrder() throws {
        let model = Self.namedResidual(seed: 3)
        let clean = model.stateDictionary()
        #expect(model.firstNonFiniteTensorName() == nil)
        #expect(model.parameters.map(ObjectIdentifier.init) == model.namedParameters.map { ObjectIdentifier($0.parameter) })
        for (index, entry) in clean.enumerated() {
            for poison in [Float.nan, .infinity, -.infinity] {
                var poisoned = clean
                // The last element: past the last full 8-lane vector in every tensor but one.
                poisoned[index].tensor.values[entry.tensor.count - 1] = poison
                // A later tensor poisoned too: the first in state-dictionary order is named.
                if index + 1 < clean.count { poisoned[index + 1].tensor.values[0] = .nan }
                try model.load(stateDictionary: poisoned)
                #expect(model.firstNonFiniteTensorName() == entry.name, "\(entry.name) holding \(poison)")
            }
        }
        try model.load(stateDictionary: clean)
        #expect(model.firstNonFiniteTensorName() == nil)
    }

    @Test func tensorFinitenessLooksAtEveryElement() {
        for count in [0, 1, 7, 8, 9, 16, 19] {
            #expect(Tensor(shape: [count], values: [Float](repeating: 3e38, count: count)).isFinite)
            for position in 0..<count {
                var values = [Float](repeating: -1, count: count)
                values[position] = .nan
                #expect(!Tensor(shape: [count], values: values).isFinite, "NaN at \(position) of \(count)")
                values[position] = -.infinity
                #expect(!Tensor(shape: [count], values: values).isFinite, "-inf at \(position) of \(count)")
            }
        }
    }

    @Test func stateDictionaryRoundTrip() throws {
        let source = Self.namedResidual(seed: 11)
        let x = randomTensor([2, 2, 6], seed: 12)
        _ = source.forward(x, training: true)  // running statistics away from their initial values
        let target = Self.namedResidual(seed: 13)
        #expect(target.forward(x, training: false) != source.forward(x, training: false))
        try target.load(stateDictionary: source.stateDictionary())
        #expect(target.stateDictionary().map(\.name) == source.stateDictionary().map(\.name))
        #expect(target.stateDictionary().map(\.tensor) == source.stateDictionary().map(\.tensor))
        #expect(target.forward(x, training: false) == source.forward(x, training: false))

        var generator = SeededGenerator(seed: 14)
        let identity = Residual(body: Self.convolutionBatchNorm(2, 3, kernelSize: 3, using: &generator), bodyName: "temporal")
        #expect(throws: StateDictionaryError.unexpectedTensor(name: "residual.convolution.weight")) {
            try identity.load(stateDictionary: source.stateDictionary())
        }
    }

    @Test func branchesStateDictionaryRoundTrip() throws {
        func make(seed: UInt64) -> Sequential {
            var generator = SeededGenerator(seed: seed)
            return Sequential([("branches", Branches([
                Self.convolutionBatchNorm(2, 2, kernelSize: 3, using: &generator),
                Self.convolutionBatchNorm(2, 1, kernelSize: 3, dilation: 2, using: &generator),
            ]))])
        }
        let source = make(seed: 15)
        let x = randomTensor([2, 2, 6, 3], seed: 16)
        _ = source.forward(x, training: true)
        let target = make(seed: 17)
        try target.load(stateDictionary: source.stateDictionary())
        #expect(source.stateDictionary().map(\.name).prefix(3)
            == ["branches.0.convolution.weight", "branches.0.convolution.bias", "branches.0.batchNorm.weight"])
        #expect(target.stateDictionary().map(\.tensor) == source.stateDictionary().map(\.tensor))
        #expect(target.forward(x, training: false) == source.forward(x, training: false))
    }

    // MARK: An existing block as a composition

    /// `SpatialTemporalGraphBlock` is `ReLU(Residual(graphConvolution → temporal, shortcut))`:
    /// the containers around the block's own sublayers give its outputs and gradients bit for bit,
    /// and the same state dictionary under the container's names.
    @Test(arguments: [(3, 3, 1), (2, 4, 2)])
    func spatialTemporalGraphBlockIsAComposition(inChannels: Int, outChannels: Int, stride: Int) throws {
        var generator = SeededGenerator(seed: 18)
        let block = SpatialTemporalGraphBlock(
            inChannels: inChannels, outChannels: outChannels, graph: GraphLayerTests.chain, temporalKernelSize: 3,
            stride: stride, residual: .standard(inChannels: inChannels, outChannels: outChannels, stride: stride),
            edgeImportance: true, using: &generator)
        let projection = block.sublayers.first { $0.name == "residual" }?.layer
        #expect((projection != nil) == (stride != 1))
        let composed = Sequential([
            ("unit", Residual(
                body: Sequential([("graphConvolution", block.graphConvolution), ("temporal", block.temporal)]),
                shortcut: projection, shortcutName: "residual")),
            ("relu", ReLU()),
        ])
        let names = composed.stateDictionary().map {
            $0.name.replacingOccurrences(of: "unit.body.", with: "").replacingOccurrences(of: "unit.", with: "")
        }
        #expect(names == block.stateDictionary().map(\.name))

        let x = randomTensor([2, inChannels, 6, GraphLayerTests.chain.jointCount], seed: 19)
        let upstream = randomTensor([2, outChannels, 6 / stride, GraphLayerTests.chain.jointCount], seed: 20)
        zeroGradients(block.parameters)
        let blockOutput = block.forward(x, training: true)
        let blockGradInput = block.backward(upstream)
        let blockGradients = block.parameters.map(\.gradient)
        zeroGradients(block.parameters)
        #expect(composed.forward(x, training: true) == blockOutput)
        #expect(composed.backward(upstream) == blockGradInput)
        #expect(composed.parameters.map(\.gradient) == blockGradients)
    }
}
