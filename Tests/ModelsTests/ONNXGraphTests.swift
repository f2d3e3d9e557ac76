import ModelExport
import Models
import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// The graph a temporal convolutional network describes, and the writer's errors.
@Suite struct ONNXGraphTests {
    static func network(dropout: Float = 0.1) throws -> TemporalConvolutionalNetwork {
        try TemporalConvolutionalNetwork(
            configuration: .init(inputChannels: 6, classCount: 3, channels: [4, 5], kernelSizes: [3, 5],
                                 dilations: [1, 2], dropout: dropout),
            seed: 7)
    }

    static let window = KeypointWindowShape(windowSize: 10, channelCount: 3, jointCount: 2)

    @Test func temporalNetworkGraphFollowsItsLayers() throws {
        let network = try Self.network()
        let model = try ONNXClassifierExporter(producerVersion: "test").model(
            of: network, window: Self.window, graphName: "tcn", metadata: [("labels", #"["a","b","c"]"#)])
        let graph = model.graph
        #expect(graph.nodes.map(\.opType) == [
            "Reshape", "Transpose", "BatchNormalization",
            "Conv", "BatchNormalization", "Relu", "Conv", "BatchNormalization", "Relu",
            "GlobalAveragePool", "Flatten", "Gemm", "Softmax", "Reshape",
        ])
        // Initializers carry the state-dictionary names, so every format names tensors alike.
        #expect(graph.initializers.map(\.name)
            == ["frames.shape"] + network.stateDictionary().map(\.name) + ["labelProbabilities.shape"])
        #expect(graph.inputs.map(\.name) == ["poses"])
        #expect(graph.inputs.first?.type == .tensor(.float, shape: [10, 3, 2]))
        #expect(graph.outputs.map(\.name) == ["labelProbabilities"])
        #expect(graph.outputs.first?.type == .tensor(.float, shape: [3]))
        #expect(graph.nodes.last?.outputs == ["labelProbabilities"])

        let secondConvolution = try #require(graph.nodes.filter { $0.opType == "Conv" }.last)
        #expect(secondConvolution.inputs == ["blocks.0.relu", "blocks.1.convolution.weight", "blocks.1.convolution.bias"])
        #expect(secondConvolution.attributes.contains(.init("pads", .ints([4, 4]))))
        #expect(secondConvolution.attributes.contains(.init("dilations", .ints([2]))))
        #expect(secondConvolution.attributes.contains(.init("kernel_shape", .ints([5]))))
        #expect(model.metadata == [ONNX.StringStringEntryProto(key: "labels", value: #"["a","b","c"]"#)])
        #expect(model.opsetImports == [ONNX.OperatorSetIdProto(version: ONNX.opsetVersion)])
    }

    @Test func initializersHoldTheTrainedValues() throws {
        let network = try Self.network()
        let model = try ONNXClassifierExporter(producerVersion: "test").model(
            of: network, window: Self.window, graphName: "tcn", metadata: [])
        for (name, tensor) in network.stateDictionary() {
            #expect(model.graph.initializers.first { $0.name == name } == ONNX.TensorProto(name: name, tensor: tensor))
        }
    }

    @Test func windowMustMatchTheNetworksInputChannels() throws {
        let wrong = KeypointWindowShape(windowSize: 10, channelCount: 3, jointCount: 18)
        #expect(throws: ModelExportError.self) {
            try ONNXClassifierExporter(producerVersion: "test").model(
                of: try Self.network(), window: wrong, graphName: "tcn", metadata: [])
        }
    }

    @Test func duplicateMetadataKeysAreRejected() throws {
        #expect(throws: ModelExportError.duplicateMetadataKey(.onnx, "labels")) {
            try ONNXClassifierExporter(producerVersion: "test").model(
                of: try Self.network(), window: Self.window, graphName: "tcn",
                metadata: [("labels", "[]"), ("labels", "[]")])
        }
    }

    @Test func layersWithoutATranslationAreNamedByPath() throws {
        var graph = ONNXGraphBuilder(inputNames: ["x"])
        let layers: [(name: String, layer: any Layer)] = [("relu", ReLU()), ("double", Doubling())]
        #expect(throws: ModelExportError.unsupportedLayer(.onnx, path: "head.double", type: "Doubling")) {
            try graph.appendLayers(layers, input: "x", path: "head")
        }
    }

    @Test func nodeOutputNamesAreMadeUniqueButInitializerNamesAreNot() throws {
        var graph = ONNXGraphBuilder(inputNames: ["x"])
        #expect(graph.addNode("Relu", inputs: ["x"], output: "x") == "x_2")
        #expect(graph.addNode("Relu", inputs: ["x_2"], output: "x") == "x_3")
        try graph.addInitializer("w", tensor: Tensor(zeros: [1]))
        #expect(throws: ModelExportError.duplicateName(.onnx, "w")) { try graph.addInitializer("w", int64s: [1]) }
    }
}
