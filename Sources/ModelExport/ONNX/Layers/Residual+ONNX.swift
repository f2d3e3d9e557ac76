import NeuralNetwork

extension Residual: ONNXLayerExportable {
    /// Appends the body's nodes under `path.<body name>`, the shortcut's under
    /// `path.<shortcut name>` (none for the identity), and one `Add` (ONNX `docs/Operators.md`,
    /// Add-14) of the two, whose output is named `path`.
    ///
    /// Each child uses its own translation (``ONNXGraphBuilder/appendLayers(_:input:path:)``);
    /// inside a graph model's frames, ``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``
    /// walks the children as frame layers instead.
    ///
    /// - Throws: ``ONNXExportError/unsupportedLayer(path:type:)`` naming the first descendant
    ///   without a translation.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try appendONNXNodes(input: input, path: path, to: &graph) { graph, layers, input, path in
            try graph.appendLayers(layers, input: input, path: path)
        }
    }

    /// Appends the residual with `appendChildren` translating the body and the shortcut.
    ///
    /// - Parameters:
    ///   - input: The value both paths read.
    ///   - path: The residual's state-dictionary path.
    ///   - graph: The graph being built.
    ///   - appendChildren: Appends named layers to the graph (receiving the graph, the layers,
    ///     their input and their parent's path) and returns the last one's output.
    /// - Returns: The `Add` node's output.
    func appendONNXNodes(
        input: String, path: String, to graph: inout ONNXGraphBuilder,
        appendingChildrenWith appendChildren: (inout ONNXGraphBuilder, [(name: String, layer: any Layer)], String, String) throws -> String
    ) throws -> String {
        let main = try appendChildren(&graph, [body], input, path)
        let skip = try shortcut.map { try appendChildren(&graph, [$0], input, path) } ?? input
        return graph.addNode("Add", inputs: [main, skip], output: path.isEmpty ? "residual" : path)
    }
}
