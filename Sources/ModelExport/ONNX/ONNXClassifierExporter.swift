import Protobuf

/// Builds the ONNX model of an action classifier with Create ML's interface.
///
/// The graph maps input `poses`, float32 `[T, C, J]` (`[window, 3, 18]` for Vision-18), to
/// output `labelProbabilities`, float32 `[classes]`, in the order of the `labels` metadata:
/// ```
/// poses [T, C, J] → (the model's own nodes, ONNXExportable) → logits [1, K]
///   → Softmax(axis 1) → Reshape [K] → labelProbabilities
/// ```
/// `Softmax` is operator set 13's definition, along one axis (ONNX `docs/Operators.md`).
public struct ONNXClassifierExporter: Sendable {
    /// The graph input's name, Create ML's `poses`.
    public static let inputName = "poses"
    /// The graph output's name, Create ML's `labelProbabilities`.
    public static let outputName = "labelProbabilities"

    /// `ModelProto.producer_name`.
    public var producerName: String
    /// `ModelProto.producer_version`.
    public var producerVersion: String

    /// Creates an exporter that signs models with the given producer.
    public init(producerName: String = "ActionLab", producerVersion: String) {
        self.producerName = producerName
        self.producerVersion = producerVersion
    }

    /// The ONNX model of `classifier` for windows of the given shape.
    ///
    /// - Parameters:
    ///   - classifier: The trained model; its evaluation-mode forward pass is exported.
    ///   - window: The input window shape `[T, C, J]`.
    ///   - graphName: `GraphProto.name`, e.g. the experiment's name.
    ///   - metadata: `ModelProto.metadata_props`, in order; keys must be distinct.
    ///   - documentation: `ModelProto.doc_string`.
    /// - Returns: The model, ready for ``ProtobufMessage/serializedData()``.
    /// - Throws: ``ModelExportError``.
    public func model(
        of classifier: any ONNXExportable, window: KeypointWindowShape, graphName: String,
        metadata: [(key: String, value: String)], documentation: String = ""
    ) throws -> ONNX.ModelProto {
        var keys: Set<String> = []
        for (key, _) in metadata where !keys.insert(key).inserted {
            throw ModelExportError.duplicateMetadataKey(.onnx, key)
        }
        var graph = ONNXGraphBuilder(inputNames: [Self.inputName])
        let logits = try classifier.appendONNXNodes(poses: Self.inputName, window: window, to: &graph)
        let probabilities = graph.addNode(
            "Softmax", inputs: [logits], output: "probabilities", attributes: [.init("axis", .int(1))])
        let shape = try graph.addInitializer(Self.outputName + ".shape", int64s: [Int64(classifier.classCount)])
        let output = graph.addNode("Reshape", inputs: [probabilities, shape], output: Self.outputName)
        guard output == Self.outputName else { throw ModelExportError.duplicateName(.onnx, Self.outputName) }

        let input = ONNX.ValueInfoProto(
            name: Self.inputName, type: .tensor(.float, shape: window.dimensions),
            documentation: "One window of keypoints [frames, channels, joints] \(window)")
        let outputInfo = ONNX.ValueInfoProto(
            name: Self.outputName, type: .tensor(.float, shape: [classifier.classCount]),
            documentation: "Class probabilities in the order of the 'labels' metadata")
        return ONNX.ModelProto(
            graph: ONNX.GraphProto(
                name: graphName, nodes: graph.nodes, initializers: graph.initializers,
                inputs: [input], outputs: [outputInfo]),
            producerName: producerName, producerVersion: producerVersion,
            metadata: metadata.map { ONNX.StringStringEntryProto(key: $0.key, value: $0.value) },
            documentation: documentation)
    }
}
