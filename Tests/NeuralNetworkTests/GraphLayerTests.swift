import Foundation
import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// The spatial graph, finite-difference checks of the graph layers, and both ST-GCN presets
/// through the classifier check (see `checkGradients` for the loss and tolerances).
@Suite struct GraphLayerTests {
    /// A chain 0–1–2–3–4 with centre 1: joint 0 is one hop out, 2 one hop out on the other side,
    /// 3 and 4 beyond st-gcn's one-hop horizon.
    static let chain = SpatialGraph(jointCount: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4)], center: 1)

    static func vision18Graph() -> SpatialGraph {
        let edges = [
            (4, 3), (3, 2), (7, 6), (6, 5), (13, 12), (12, 11), (10, 9), (9, 8), (11, 5), (8, 2),
            (5, 1), (2, 1), (0, 1), (15, 0), (14, 0), (17, 15), (16, 14),
        ]
        return SpatialGraph(jointCount: 18, edges: edges, center: 1)
    }

    /// Column sums of all partitions are 1 (normalize_digraph), and the partitions follow st-gcn's
    /// rules: the nose (0) hears itself in A[0], the neck (closer to the centre) in A[2] and the
    /// eyes (beyond the one-hop horizon) in A[1], each with weight 1/(degree + 1) = 1/4.
    @Test func vision18SpatialConfiguration() {
        let graph = Self.vision18Graph()
        #expect(graph.partitionCount == 3)
        #expect(graph.adjacency.shape == [3, 18, 18])
        for w in 0..<18 {
            var total: Float = 0
            for k in 0..<3 { for v in 0..<18 { total += graph.adjacency[k, v, w] } }
            #expect(abs(total - 1) < 1e-6, "column \(w) sums to \(total)")
        }
        #expect(graph.adjacency[0, 0, 0] == 0.25)
        #expect(graph.adjacency[2, 1, 0] == 0.25)
        #expect(graph.adjacency[1, 14, 0] == 0.25 && graph.adjacency[1, 15, 0] == 0.25)
        // Neck (degree 4: shoulders, nose; hips are not connected to it in COCO-18 → 3 edges).
        #expect(graph.adjacency[0, 1, 1] == 0.25)
        #expect(graph.adjacency[1, 0, 1] == 0.25 && graph.adjacency[1, 2, 1] == 0.25)
        #expect(graph.adjacency[2, 0, 1] == 0)
    }

    @Test func edgelessLayoutUsesIdentityGraph() {
        let graph = SpatialGraph(jointCount: 2, edges: [])
        #expect(graph.partitionCount == 1)
        #expect(graph.center == nil)
        #expect(graph.adjacency.values == [1, 0, 0, 1])
    }

    @Test func centralJointOfChainIsItsMiddle() {
        #expect(SpatialGraph.centralJoint(jointCount: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4)]) == 2)
        #expect(SpatialGraph(jointCount: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4)]).center == 2)
    }

    @Test(arguments: [false, true])
    func spatialGraphConvolutionGradients(edgeImportance: Bool) {
        var generator = SeededGenerator(seed: 40)
        let layer = SpatialGraphConvolution(
            inChannels: 2, outChannels: 3, graph: Self.chain, edgeImportance: edgeImportance, using: &generator)
        if let importance = layer.edgeImportance {
            // Away from 1 so that a wrong ∂M does not hide behind M = 1.
            importance.value = randomTensor(importance.value.shape, seed: 41) * 0.5 + Tensor(shape: importance.value.shape, repeating: 1)
        }
        checkGradients(of: layer, input: randomTensor([2, 2, 3, 5], seed: 42))
    }

    @Test func spatialGraphConvolutionOnIdentityGraphIsPointwise() {
        var generator = SeededGenerator(seed: 43)
        let layer = SpatialGraphConvolution(
            inChannels: 3, outChannels: 2, graph: .identity(jointCount: 2), edgeImportance: true, using: &generator)
        checkGradients(of: layer, input: randomTensor([2, 3, 4, 2], seed: 44))
    }

    @Test(arguments: [(3, 1, 1), (3, 2, 1), (5, 2, 2)])
    func temporalConvolutionOverJoints(kernelSize: Int, stride: Int, dilation: Int) {
        var generator = SeededGenerator(seed: 45)
        let layer = TemporalConvolution(inChannels: 2, outChannels: 3, kernelSize: kernelSize, stride: stride,
                                        padding: .same, dilation: dilation, using: &generator)
        checkGradients(of: layer, input: randomTensor([2, 2, 7, 3], seed: 46))
    }

    /// A rank-4 convolution equals the rank-3 one applied to each joint's time series.
    @Test func temporalConvolutionOverJointsMatchesPerJointConvolution() {
        var generator = SeededGenerator(seed: 47)
        let layer = TemporalConvolution(inChannels: 2, outChannels: 3, kernelSize: 3, stride: 2, using: &generator)
        let x = randomTensor([2, 2, 7, 3], seed: 48)
        let y = layer.forward(x, training: false)
        #expect(y.shape == [2, 3, 4, 3])
        for v in 0..<3 {
            var series = Tensor(zeros: [2, 2, 7])
            for n in 0..<2 { for c in 0..<2 { for t in 0..<7 { series[n, c, t] = x[n, c, t, v] } } }
            let expected = layer.forward(series, training: false)
            for n in 0..<2 { for o in 0..<3 { for t in 0..<4 {
                #expect(isClose(Double(y[n, o, t, v]), Double(expected[n, o, t]), relative: 1e-6, absolute: 1e-7))
            } } }
        }
    }

    @Test(arguments: [true, false])
    func batchNormalizationOverJoints(training: Bool) {
        let layer = BatchNormalization(channels: 2)
        layer.weight.value = Tensor(shape: [2], values: [1.5, -0.5])
        layer.runningVariance.value = Tensor(shape: [2], values: [0.5, 2])
        checkGradients(of: layer, input: randomTensor([2, 2, 3, 4], seed: 49) * 2, training: training)
    }

    @Test func globalAveragePoolingOverJoints() {
        checkGradients(of: GlobalAveragePooling(), input: randomTensor([2, 3, 2, 4], seed: 50))
    }

    /// Blocks and networks are checked in evaluation mode: in training mode batch normalization
    /// standardizes each channel right before a ReLU, so many pre-activations sit near 0 and central
    /// differences step across the kink. Training-mode gradients are compared with PyTorch's in
    /// `STGCNReferenceTests`.
    @Test(arguments: [
        (2, 3, 1, SpatialTemporalGraphBlock.Residual.none),
        (3, 3, 1, .identity),
        (2, 3, 2, .projection),
    ])
    func blockGradients(inChannels: Int, outChannels: Int, stride: Int, residual: SpatialTemporalGraphBlock.Residual) {
        var generator = SeededGenerator(seed: 51)
        let block = SpatialTemporalGraphBlock(
            inChannels: inChannels, outChannels: outChannels, graph: Self.chain, temporalKernelSize: 3,
            stride: stride, residual: residual, edgeImportance: true, using: &generator)
        checkGradients(of: block, input: randomTensor([2, inChannels, 4, 5], seed: 52), training: false,
                       epsilon: 1e-3, relative: 2e-2, absolute: 3e-3)
    }

    /// The whole network (evaluation mode, see `blockGradients`) on a 5-joint chain.
    @Test func networkGradients() throws {
        let configuration = SpatialTemporalGraphConvolutionalNetwork.Configuration(
            channelCount: 2, graph: Self.chain, classCount: 3,
            blocks: [.init(channels: 3), .init(channels: 4, stride: 2)], temporalKernelSize: 3)
        let model = try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: 53)
        let names = model.namedParameters.map(\.name)
        let checked = [
            "inputNormalization.weight", "blocks.0.graphConvolution.edgeImportance",
            "blocks.1.residual.convolution.weight", "classifier.weight",
        ].compactMap { names.firstIndex(of: $0) }
        #expect(checked.count == 4)
        checkGradients(of: model, input: randomTensor([3, 10, 4], seed: 54), training: false, parameterIndices: checked,
                       epsilon: 1e-3, relative: 2e-2, absolute: 3e-3)
    }

    @Test(arguments: SpatialTemporalGraphConvolutionalNetwork.Preset.allCases)
    func presetPassesClassifierCheck(_ preset: SpatialTemporalGraphConvolutionalNetwork.Preset) throws {
        let configuration = SpatialTemporalGraphConvolutionalNetwork.Configuration(
            channelCount: 3, graph: Self.vision18Graph(), classCount: 3, blocks: preset.blocks, dropout: 0.1)
        try checkClassifier({ try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: $0) },
                            input: randomTensor([3, 54, 12], seed: 55), labels: [0, 1, 2])
        let model = try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: 0)
        #expect(model.inputShape == [54, nil])
        #expect(model.forward(randomTensor([2, 54, 12], seed: 56), training: true).shape == [2, 3])
    }

    @Test func presetPlans() {
        typealias Network = SpatialTemporalGraphConvolutionalNetwork
        #expect(Network.Preset.stgcn.blocks.map(\.channels) == [64, 64, 64, 128, 128, 128, 256, 256, 256])
        #expect(Network.Preset.stgcn.blocks.map(\.stride) == [1, 1, 1, 2, 1, 1, 2, 1, 1])
        #expect(Network.Preset.stgcnSmall.blocks.map(\.channels) == [32, 32, 64, 64, 128, 128])
        #expect(Network.Preset.stgcnSmall.blocks.map(\.stride) == [1, 1, 2, 1, 2, 1])
    }

    @Test func stateDictionaryNames() throws {
        let configuration = SpatialTemporalGraphConvolutionalNetwork.Configuration(
            channelCount: 2, graph: Self.chain, classCount: 2,
            blocks: [.init(channels: 3), .init(channels: 3), .init(channels: 4, stride: 2)], temporalKernelSize: 3)
        let model = try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: 0)
        let names = model.stateDictionary().map(\.name)
        #expect(names.prefix(7) == [
            "inputNormalization.weight", "inputNormalization.bias",
            "inputNormalization.runningMean", "inputNormalization.runningVariance",
            "blocks.0.graphConvolution.weight", "blocks.0.graphConvolution.bias",
            "blocks.0.graphConvolution.edgeImportance",
        ])
        #expect(!names.contains { $0.hasPrefix("blocks.0.residual") || $0.hasPrefix("blocks.1.residual") })
        #expect(names.contains("blocks.2.residual.convolution.weight"))
        #expect(names.contains("blocks.1.temporal.outputBatchNorm.runningVariance"))
        #expect(names.suffix(2) == ["classifier.weight", "classifier.bias"])
    }

    @Test func invalidConfigurationListsProblems() {
        let configuration = SpatialTemporalGraphConvolutionalNetwork.Configuration(
            channelCount: 3, graph: Self.chain, classCount: 1, blocks: [], temporalKernelSize: 4)
        #expect(configuration.problems.count == 3)
        #expect(throws: SpatialTemporalGraphConvolutionalNetwork.InvalidConfiguration.self) {
            try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: 0)
        }
    }

    /// Joints of a 5-joint chain oscillating horizontally or vertically, with random phase,
    /// frequency and amplitude: `stgcn-small` must classify 12 windows perfectly (evaluation mode)
    /// within 40 full-batch Adam steps.
    @Test func smallPresetLearnsOscillationDirection() throws {
        let (count, channels, joints, length) = (12, 2, 5, 16)
        var generator = SeededGenerator(seed: 60, purpose: "toy-data")
        var input = Tensor(zeros: [count, channels * joints, length])
        var labels: [Int] = []
        for n in 0..<count {
            let label = n % 2
            labels.append(label)
            let phase = generator.nextUniform(from: 0, to: 2 * .pi)
            let frequency = generator.nextUniform(from: 0.1, to: 0.25)
            let amplitude = generator.nextUniform(from: 0.5, to: 1.5)
            for v in 0..<joints {
                for t in 0..<length {
                    let angle: Float = 2 * Float.pi * frequency * Float(t) + phase + Float(v) * 0.4
                    let wave = amplitude * Foundation.sin(angle)
                    let noise = generator.nextUniform(from: -0.1, to: 0.1)
                    input[n, label * joints + v, t] = wave + noise
                    input[n, (1 - label) * joints + v, t] = Float(v) * 0.2 + noise
                }
            }
        }
        let model = try SpatialTemporalGraphConvolutionalNetwork(
            configuration: .init(channelCount: channels, graph: Self.chain, classCount: 2,
                                 blocks: SpatialTemporalGraphConvolutionalNetwork.Preset.stgcnSmall.blocks),
            seed: 61)
        let losses = train(model, input: input, labels: labels, steps: 40, seed: 62, optimizer: Adam(learningRate: 0.005))
        let probabilities = softmax(model.forward(input, training: false))
        let correct = (0..<count).filter { n in (probabilities[n, 1] > probabilities[n, 0] ? 1 : 0) == labels[n] }.count
        #expect(correct == count, "train accuracy \(correct)/\(count), losses \(losses.first ?? 0) → \(losses.last ?? 0)")
        #expect((losses.last ?? .infinity) < (losses.first ?? 0))
    }
}
