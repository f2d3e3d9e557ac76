import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// The evaluation-mode path with batch normalization folded into the convolutions (`infer`):
/// equal to `forward(_, training: false)` within rounding, the same bits whatever the batch, and
/// computed again when parameters or running statistics change.
@Suite struct InferenceTests {
    /// Gives every batch normalization of `layer` random `γ`, `β` and running statistics, and every
    /// edge importance random values, so that folding has something to fold.
    static func randomizeNormalizations(of layer: any Layer, seed: UInt64) {
        var seed = seed
        layer.visitLayers { _, sublayer in
            seed += 4
            if let batchNorm = sublayer as? BatchNormalization {
                let shape = [batchNorm.channels]
                batchNorm.weight.value = randomTensor(shape, seed: seed, margin: 0.5)
                batchNorm.bias.value = randomTensor(shape, seed: seed + 1)
                batchNorm.runningMean.value = randomTensor(shape, seed: seed + 2) * 0.5
                batchNorm.runningVariance.value = randomTensor(shape, seed: seed + 3).map { 0.5 + abs($0) }
            } else if let graphConvolution = sublayer as? SpatialGraphConvolution, let importance = graphConvolution.edgeImportance {
                importance.value = randomTensor(importance.value.shape, seed: seed, margin: 0.5)
            }
        }
    }

    static func network(
        _ blocks: [SpatialTemporalGraphConvolutionalNetwork.Block], kernel: Int = 9, seed: UInt64 = 3
    ) throws -> SpatialTemporalGraphConvolutionalNetwork {
        let configuration = SpatialTemporalGraphConvolutionalNetwork.Configuration(
            channelCount: 3, graph: GraphLayerTests.vision18Graph(), classCount: 5, blocks: blocks,
            temporalKernelSize: kernel, dropout: 0.2)
        let model = try SpatialTemporalGraphConvolutionalNetwork(configuration: configuration, seed: seed)
        randomizeNormalizations(of: model, seed: seed * 1000)
        return model
    }

    /// Blocks of every residual kind, stride 1 and 2, even and odd lengths, kernels 1, 3 and 9.
    @Test(arguments: [
        (2, 3, 1, 3, 5, SpatialTemporalGraphBlock.Residual.none),
        (3, 3, 1, 3, 6, .identity),
        (2, 4, 2, 3, 7, .projection),
        (4, 4, 2, 9, 8, .projection),
        (3, 3, 1, 1, 4, .identity),
        (2, 3, 3, 5, 10, .projection),
    ])
    func blockMatchesEvaluationForward(
        inChannels: Int, outChannels: Int, stride: Int, kernel: Int, length: Int, residual: SpatialTemporalGraphBlock.Residual
    ) {
        var generator = SeededGenerator(seed: 61)
        let block = SpatialTemporalGraphBlock(
            inChannels: inChannels, outChannels: outChannels, graph: GraphLayerTests.chain, temporalKernelSize: kernel,
            stride: stride, residual: residual, edgeImportance: true, using: &generator)
        Self.randomizeNormalizations(of: block, seed: 62)
        let x = randomTensor([3, inChannels, length, 5], seed: 63)
        let expected = block.forward(x, training: false)
        let folded = block.infer(x)
        #expect(folded.shape == expected.shape)
        expectClose(folded.values, expected.values, relative: 1e-5, absolute: 1e-5, "block")
    }

    /// Both presets on Vision-18 windows of an odd length (strided blocks see odd and even lengths).
    @Test(arguments: SpatialTemporalGraphConvolutionalNetwork.Preset.allCases)
    func presetMatchesEvaluationForward(_ preset: SpatialTemporalGraphConvolutionalNetwork.Preset) throws {
        let model = try Self.network(preset.blocks)
        let x = randomTensor([2, 54, 23], seed: 64)
        expectClose(model.infer(x).values, model.forward(x, training: false).values, relative: 1e-4, absolute: 1e-5, "logits")
    }

    /// A window's logits are the same bits alone and in a batch, on one thread and on two.
    @Test func batchDoesNotChangeTheBits() throws {
        let model = try Self.network(SpatialTemporalGraphConvolutionalNetwork.Preset.stgcnSmall.blocks)
        let x = randomTensor([3, 54, 16], seed: 65)
        let batched = model.infer(x)
        let size = 54 * 16
        let samples = (0..<3).map { n in Tensor(shape: [1, 54, 16], values: Array(x.values[(n * size)..<((n + 1) * size)])) }
        for threads in [1, 2] {
            let single: [Float] = ComputeThreads.withCount(threads) { samples.flatMap { model.infer($0).values } }
            #expect(single == batched.values, "\(threads) threads")
        }
    }

    /// Loading other weights, a training step's running statistics and an optimizer's in-place
    /// update all reach the folded weights; training is unaffected by inference calls.
    @Test func foldedWeightsFollowParameterChanges() throws {
        let blocks = [SpatialTemporalGraphConvolutionalNetwork.Block(channels: 8), .init(channels: 16, stride: 2)]
        let model = try Self.network(blocks, kernel: 3, seed: 3)
        let other = try Self.network(blocks, kernel: 3, seed: 4)
        let x = randomTensor([2, 54, 12], seed: 66)
        let before = model.infer(x)
        try model.load(stateDictionary: other.stateDictionary())
        #expect(model.infer(x) == other.infer(x))
        #expect(model.infer(x) != before)

        // A training forward moves the running statistics; a step moves the parameters in place.
        let reference = try Self.network(blocks, kernel: 3, seed: 4)
        let trained = model.forward(x, training: true)
        #expect(trained == reference.forward(x, training: true), "training does not see inference calls")
        expectClose(model.infer(x).values, model.forward(x, training: false).values, relative: 1e-4, absolute: 1e-5, "after a training forward")
        for (index, parameter) in model.parameters.enumerated() {
            parameter.value.add(randomTensor(parameter.value.shape, seed: 70 + UInt64(index)), scaledBy: 0.05)
        }
        expectClose(model.infer(x).values, model.forward(x, training: false).values, relative: 1e-4, absolute: 1e-5, "after a step")
    }
}
