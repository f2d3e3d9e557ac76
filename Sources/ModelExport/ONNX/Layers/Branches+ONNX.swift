import NeuralNetwork

extension Branches: ONNXContainerExportable {
    /// Appends every branch's nodes under `path.<branch name>`, each reading `input`, in branch
    /// order, and one `Concat` with `axis = 1` (ONNX `docs/Operators.md`, Concat-13) of their
    /// outputs, named `path`.
    ///
    /// Each branch uses its own translation (``ONNXGraphBuilder/appendLayers(_:input:path:)``);
    /// inside a graph model's frames, ``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``
    /// walks the branches as frame layers instead.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` naming the first descendant
    ///   without a translation.
    public func appendONNXNodes(
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
