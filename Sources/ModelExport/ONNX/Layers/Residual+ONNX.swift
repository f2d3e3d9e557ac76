import NeuralNetwork

extension Residual: ONNXContainerExportable {
    /// Appends the body's nodes under `path.<body name>`, the shortcut's under
    /// `path.<shortcut name>` (none for the identity), and one `Add` (ONNX `docs/Operators.md`,
    /// Add-14) of the two, whose output is named `path`.
    ///
    /// Each child uses its own translation (``ONNXGraphBuilder/appendLayers(_:input:path:)``);
    /// inside a graph model's frames, ``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``
    /// walks the children as frame layers instead.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` naming the first descendant
    ///   without a translation.
    public func appendONNXNodes(
        input: String, path: String, to graph: inout ONNXGraphBuilder,
        appendingChildrenWith appendChildren: (inout ONNXGraphBuilder, [(name: String, layer: any Layer)], String, String) throws -> String
    ) throws -> String {
        let main = try appendChildren(&graph, [body], input, path)
        let skip = try shortcut.map { try appendChildren(&graph, [$0], input, path) } ?? input
        return graph.addNode("Add", inputs: [main, skip], output: path.isEmpty ? "residual" : path)
    }
}
