import ActionLabTestSupport
import Foundation
import ModelExport
import NeuralNetwork
import NeuralNetworkTestSupport
import Protobuf
import Randomness
import Testing

/// The ONNX translation of `Residual` and `Branches`: the nodes and initializers they append by
/// walking their children, errors that name an untranslatable child's path, and onnxruntime's
/// output of a small composed model against ActionLab's evaluation-mode forward pass, on
/// `[N, C, T]` and on a graph model's frames `[N, C, T, V]`.
@Suite struct ContainerExportTests {
    /// Uniform values in `[low, high)`.
    static func randomTensor(_ shape: [Int], seed: UInt64, low: Float = -1, high: Float = 1) -> Tensor {
        var generator = SeededGenerator(seed: seed, purpose: "container-export-test")
        return Tensor(shape: shape, values: (0..<shape.reduce(1, *)).map { _ in generator.nextUniform(from: low, to: high) })
    }

    /// Convolution then batch normalization with running statistics away from 0 and 1.
    static func convolutionBatchNorm(
        _ inChannels: Int, _ outChannels: Int, kernelSize: Int, stride: Int = 1, using generator: inout SeededGenerator
    ) -> Sequential {
        let normalization = BatchNormalization(channels: outChannels)
        normalization.runningMean.value = randomTensor([outChannels], seed: generator.next())
        normalization.runningVariance.value = randomTensor([outChannels], seed: generator.next(), low: 0.5, high: 2)
        normalization.weight.value = randomTensor([outChannels], seed: generator.next(), low: 0.5, high: 1.5)
        normalization.bias.value = randomTensor([outChannels], seed: generator.next())
        return Sequential([
            ("convolution", TemporalConvolution(
                inChannels: inChannels, outChannels: outChannels, kernelSize: kernelSize, stride: stride,
                padding: kernelSize == 1 ? .explicit(0) : .same, using: &generator)),
            ("batchNorm", normalization),
        ])
    }

    /// `stem → identity residual → projection residual (stride 2) → branches (dilations 1, 2 and
    /// 1×1) → ReLU`, 3 input channels, 5 output channels.
    static func model() -> Sequential {
        var generator = SeededGenerator(seed: 21)
        let stem = TemporalConvolution(inChannels: 3, outChannels: 4, kernelSize: 3, using: &generator)
        let unit = Residual(body: convolutionBatchNorm(4, 4, kernelSize: 3, using: &generator), bodyName: "temporal")
        let down = Residual(
            body: convolutionBatchNorm(4, 3, kernelSize: 3, stride: 2, using: &generator),
            shortcut: convolutionBatchNorm(4, 3, kernelSize: 1, stride: 2, using: &generator), shortcutName: "residual")
        let branches = Branches([
            ("dilation1", TemporalConvolution(inChannels: 3, outChannels: 2, kernelSize: 3, using: &generator)),
            ("dilation2", TemporalConvolution(inChannels: 3, outChannels: 2, kernelSize: 3, dilation: 2, using: &generator)),
            ("pointwise", TemporalConvolution(inChannels: 3, outChannels: 1, kernelSize: 1, padding: .explicit(0), using: &generator)),
        ])
        return Sequential([("stem", stem), ("unit", unit), ("down", down), ("branches", branches), ("relu", ReLU())])
    }

    @Test func graphFollowsTheContainersChildren() throws {
        let model = Self.model()
        var graph = ONNXGraphBuilder(inputNames: ["x"])
        let output = try model.appendONNXNodes(input: "x", path: "", to: &graph)
        #expect(output == "relu")
        #expect(graph.nodes.map(\.opType) == [
            "Conv",
            "Conv", "BatchNormalization", "Add",
            "Conv", "BatchNormalization", "Conv", "BatchNormalization", "Add",
            "Conv", "Conv", "Conv", "Concat",
            "Relu",
        ])
        #expect(graph.initializers.map(\.name) == model.stateDictionary().map(\.name))
        func node(_ name: String) -> ONNX.NodeProto? { graph.nodes.first { $0.outputs == [name] } }
        #expect(node("unit")?.opType == "Add")
        #expect(node("unit")?.inputs == ["unit.temporal.batchNorm", "stem"])
        #expect(node("down")?.inputs == ["down.body.batchNorm", "down.residual.batchNorm"])
        #expect(node("down.residual.convolution")?.inputs
            == ["unit", "down.residual.convolution.weight", "down.residual.convolution.bias"])
        let concat = try #require(node("branches"))
        #expect(concat.opType == "Concat")
        #expect(concat.inputs == ["branches.dilation1", "branches.dilation2", "branches.pointwise"])
        #expect(concat.attributes == [.init("axis", .int(1))])
        #expect(node("branches.dilation2")?.inputs.first == "down")
        #expect(node("branches.dilation2")?.attributes.contains(.init("dilations", .ints([2]))) == true)
    }

    /// As frame layers every convolution inside the containers becomes a `k×1` `Conv` on
    /// `[N, C, T, V]`, its weight reshaped to `[out, in, k, 1]`.
    @Test func frameLayersWalkTheContainersChildren() throws {
        let model = Self.model()
        var graph = ONNXGraphBuilder(inputNames: ["x"])
        let output = try graph.appendFrameLayers(model.layers, input: "x", path: "")
        #expect(output == "relu")
        #expect(graph.nodes.filter { $0.opType != "Reshape" }.map(\.opType) == [
            "Conv",
            "Conv", "BatchNormalization", "Add",
            "Conv", "BatchNormalization", "Conv", "BatchNormalization", "Add",
            "Conv", "Conv", "Conv", "Concat",
            "Relu",
        ])
        let convolutions = graph.nodes.filter { $0.opType == "Conv" }
        #expect(convolutions.count == 7)
        #expect(convolutions.allSatisfy { $0.inputs[1].hasSuffix(".weight.reshaped") })
        let dilated = try #require(graph.nodes.first { $0.outputs == ["branches.dilation2"] })
        #expect(dilated.attributes.contains(.init("kernel_shape", .ints([3, 1]))))
        #expect(dilated.attributes.contains(.init("dilations", .ints([2, 1]))))
        #expect(dilated.attributes.contains(.init("pads", .ints([2, 0, 2, 0]))))
        let projection = try #require(graph.nodes.first { $0.outputs == ["down.residual.convolution"] })
        #expect(projection.attributes.contains(.init("strides", .ints([2, 1]))))
    }

    @Test func untranslatableChildrenAreNamedByPath() throws {
        let cases: [(layer: any Layer, path: String)] = [
            (Residual(body: Doubling()), "head.unit.body"),
            (Residual(body: ReLU(), shortcut: Doubling(), shortcutName: "residual"), "head.unit.residual"),
            (Branches([("a", ReLU()), ("b", Doubling())]), "head.unit.b"),
            (Residual(body: Branches([("a", ReLU()), ("b", Doubling())])), "head.unit.body.b"),
        ]
        for (layer, path) in cases {
            var graph = ONNXGraphBuilder(inputNames: ["x"])
            #expect(throws: ModelExportError.unsupportedLayer(.onnx, path: path, type: "Doubling")) {
                try graph.appendLayers([("unit", layer)], input: "x", path: "head")
            }
            var frames = ONNXGraphBuilder(inputNames: ["x"])
            #expect(throws: ModelExportError.unsupportedLayer(.onnx, path: path, type: "Doubling")) {
                try frames.appendFrameLayers([("unit", layer)], input: "x", path: "head")
            }
        }
    }

    /// onnxruntime evaluates the exported graph to ActionLab's evaluation-mode output within
    /// 1e-5, after onnx's checker (with shape inference) accepts it.
    @Test(arguments: [[2, 3, 9], [2, 3, 9, 4]])
    func onnxruntimeAgreesWithTheForwardPass(shape: [Int]) throws {
        let model = Self.model()
        let x = Self.randomTensor(shape, seed: 22)
        let expected = model.forward(x, training: false)
        var graph = ONNXGraphBuilder(inputNames: ["x"])
        let output = shape.count == 4
            ? try graph.appendFrameLayers(model.layers, input: "x", path: "")
            : try model.appendONNXNodes(input: "x", path: "", to: &graph)
        let onnx = ONNX.ModelProto(
            graph: ONNX.GraphProto(
                name: "containers", nodes: graph.nodes, initializers: graph.initializers,
                inputs: [ONNX.ValueInfoProto(name: "x", type: .tensor(.float, shape: shape))],
                outputs: [ONNX.ValueInfoProto(name: output, type: .tensor(.float, shape: expected.shape))]),
            producerName: "ActionLab", producerVersion: "test")

        let scratch = try TemporaryDirectory()
        try onnx.serializedData().write(to: scratch.file("model.onnx"))
        try littleEndianFloat32Data(x.values).write(to: scratch.file("x.f32"))
        try littleEndianFloat32Data(expected.values).write(to: scratch.file("expected.f32"))
        guard try PythonOracle.requireModules(["numpy", "onnx", "onnxruntime"]) else { return }
        let script = """
            import json, sys
            import numpy as np, onnx, onnxruntime
            path, x_path, shape, expected_path = sys.argv[1:5]
            model = onnx.load(path)
            onnx.checker.check_model(model, full_check=True)
            x = np.fromfile(x_path, dtype="<f4").reshape([int(s) for s in shape.split(",")])
            session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
            (y,) = session.run(None, {"x": x})
            expected = np.fromfile(expected_path, dtype="<f4")
            print(json.dumps({"shape": list(y.shape), "max_abs_difference": float(np.max(np.abs(y.ravel() - expected))),
                              "max_abs_output": float(np.max(np.abs(expected)))}))
            """
        let summary = try #require(try PythonOracle.json(script, arguments: [
            scratch.file("model.onnx").path, scratch.file("x.f32").path, shape.map(String.init).joined(separator: ","),
            scratch.file("expected.f32").path,
        ]) as? [String: Any])
        #expect(summary["shape"] as? [Int] == expected.shape)
        let difference = try #require(summary["max_abs_difference"] as? Double)
        #expect(difference <= 1e-5, "\(summary)")
        print("container export check \(shape): \(summary)")
        // The comparison is not vacuous: the output is not all zeros after the final ReLU.
        #expect(try #require(summary["max_abs_output"] as? Double) > 0.1)
    }

}
