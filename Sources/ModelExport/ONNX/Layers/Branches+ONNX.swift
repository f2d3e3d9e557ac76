import NeuralNetwork

extension Branches: ONNXLayerExportable {
    /// Appends every branch's nodes under `path.<branch name>`, each reading `input`, in branch
    /// order, and one `Concat` with `axis = 1` (ONNX `docs/Operators.md`, Concat-13) of their
    /// outputs, named `path`.
    ///
    /// Each branch uses its own translation (``ONNXGraphBuilder/appendLayers(_:input:path:)``);
    /// inside a graph model's frames, ``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``
    /// walks the branches as frame layers instead.
    ///
    /// - Throws: ``ONNXExportError/unsupportedLayer(path:type:)`` naming the first descendant
    ///   without a translation.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try appendONNXNodes(input: input, path: path, to: &graph) { graph, layers, input, path in
            try graph.appendLayers(layers, input: input, path: path)
        }
    }

    /// Appends the branches with `appendChildren` translating each of them.
    ///
    /// - Parameters:
    ///   - input: The value every branch reads.
    ///   - path: The layer's state-dictionary path.
    ///   - graph: The graph being built.
    ///   - appendChildren: Appends named layers to the graph (receiving the graph, the layers,
    ///     their input and their parent's path) and returns the last one's output.
    /// - Returns: The `Concat` node's output.
    func appendONNXNodes(
        input: String, path: String, to graph: inout ONNXGraphBuilder,
        appendingChildrenWith appendChildren: (inout ONNXGraphBuilder, [(name: String, layer: any Layer)], String, String) throws -> String
    ) throws -> String {
        var outputs: [String] = []
        for branch in branches {
            outputs.append(try appendChildren(&graph, [branch], input, path))
        }
        return graph.addNode("Concat", inputs: outputs, output: path.isEmpty ? "branches" : path, attributes: [.init("axis", .int(1))])
    }
}
