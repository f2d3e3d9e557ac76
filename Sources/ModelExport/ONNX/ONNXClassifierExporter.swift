import NeuralNetwork
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
        try model(classCount: classifier.classCount, window: window, graphName: graphName, metadata: metadata, documentation: documentation) { graph in
            let logits = try classifier.appendONNXNodes(poses: Self.inputName, window: window, to: &graph)
            return graph.addNode("Softmax", inputs: [logits], output: "probabilities", attributes: [.init("axis", .int(1))])
        }
    }

    /// The ONNX model of a late-fusion ensemble: every member reads the same window, and the
    /// output is the weighted mean of the members' class probabilities,
    /// `Σᵢ wᵢ·softmax(zᵢ) / Σᵢ wᵢ` (PYSKL's multi-stream ensembles; Duan et al., ACM MM 2022).
    ///
    /// ```
    /// poses [T, C, J] → scope_i/… (member i's nodes, every name prefixed `scope_i/`) → logits [1, K]
    ///   → Softmax(axis 1) → Mul(wᵢ / Σw) → Sum over members → Reshape [K] → labelProbabilities
    /// ```
    /// Each member's initializers keep its state-dictionary names under its scope
    /// (`bone/blocks.0.…`), so the graph holds every member's weights once.
    ///
    /// - Parameters:
    ///   - members: The models with their scope (e.g. the stream, `joint`) and weight (≥ 0, sum > 0),
    ///     all with the same class count.
    ///   - window: The input window shape `[T, C, J]`, shared by every member.
    ///   - graphName: `GraphProto.name`.
    ///   - metadata: `ModelProto.metadata_props`, in order; keys must be distinct.
    ///   - documentation: `ModelProto.doc_string`.
    /// - Returns: The model, ready for ``ProtobufMessage/serializedData()``.
    /// - Throws: ``ModelExportError/invalidEnsemble(_:reason:)`` for no member, differing class
    ///   counts, repeated scopes or weights that are negative or sum to 0; otherwise what a
    ///   member's translation throws.
    public func model(
        ofEnsemble members: [(scope: String, classifier: any ONNXExportable, weight: Double)], window: KeypointWindowShape,
        graphName: String, metadata: [(key: String, value: String)], documentation: String = ""
    ) throws -> ONNX.ModelProto {
        guard let classCount = members.first?.classifier.classCount else {
            throw ModelExportError.invalidEnsemble(.onnx, reason: "it has no member")
        }
        if let other = members.first(where: { $0.classifier.classCount != classCount }) {
            throw ModelExportError.invalidEnsemble(
                .onnx, reason: "member '\(other.scope)' has \(other.classifier.classCount) classes, '\(members[0].scope)' \(classCount)")
        }
        if Set(members.map(\.scope)).count != members.count || members.contains(where: { $0.scope.isEmpty || $0.scope.contains("/") }) {
            throw ModelExportError.invalidEnsemble(
                .onnx, reason: "member scopes must be distinct, non-empty and without '/': \(members.map(\.scope))")
        }
        let total = members.reduce(0) { $0 + $1.weight }
        guard members.allSatisfy({ $0.weight >= 0 && $0.weight.isFinite }), total > 0, total.isFinite else {
            throw ModelExportError.invalidEnsemble(.onnx, reason: "weights must be finite, non-negative and sum to more than 0: \(members.map(\.weight))")
        }
        return try model(classCount: classCount, window: window, graphName: graphName, metadata: metadata, documentation: documentation) { graph in
            var weighted: [String] = []
            for member in members {
                let probabilities = try graph.appendScoped(member.scope, shared: [Self.inputName]) { inner in
                    let logits = try member.classifier.appendONNXNodes(poses: Self.inputName, window: window, to: &inner)
                    return inner.addNode("Softmax", inputs: [logits], output: "probabilities", attributes: [.init("axis", .int(1))])
                }
                let weight = try graph.addInitializer(
                    member.scope + "/ensembleWeight", tensor: Tensor(shape: [1], values: [Float(member.weight / total)]))
                weighted.append(graph.addNode("Mul", inputs: [probabilities, weight], output: member.scope + "/weightedProbabilities"))
            }
            return graph.addNode("Sum", inputs: weighted, output: "probabilities")
        }
    }

    /// The model around `probabilities`, which adds nodes computing `[1, classCount]` class
    /// probabilities from the input `poses`: the reshape to `labelProbabilities`, the value
    /// infos and the metadata.
    private func model(
        classCount: Int, window: KeypointWindowShape, graphName: String, metadata: [(key: String, value: String)],
        documentation: String, probabilities: (inout ONNXGraphBuilder) throws -> String
    ) throws -> ONNX.ModelProto {
        var keys: Set<String> = []
        for (key, _) in metadata where !keys.insert(key).inserted {
            throw ModelExportError.duplicateMetadataKey(.onnx, key)
        }
        var graph = ONNXGraphBuilder(inputNames: [Self.inputName])
        let probabilities = try probabilities(&graph)
        let shape = try graph.addInitializer(Self.outputName + ".shape", int64s: [Int64(classCount)])
        let output = graph.addNode("Reshape", inputs: [probabilities, shape], output: Self.outputName)
        guard output == Self.outputName else { throw ModelExportError.duplicateName(.onnx, Self.outputName) }

        let input = ONNX.ValueInfoProto(
            name: Self.inputName, type: .tensor(.float, shape: window.dimensions),
            documentation: "One window of keypoints [frames, channels, joints] \(window)")
        let outputInfo = ONNX.ValueInfoProto(
            name: Self.outputName, type: .tensor(.float, shape: [classCount]),
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
