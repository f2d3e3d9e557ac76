import NeuralNetwork

/// A container layer (``Residual``, ``Branches``) whose ONNX translation combines its children's
/// and lets the caller choose how the children are translated: each with its own translation
/// (``ONNXGraphBuilder/appendLayers(_:input:path:)``), or as frame layers inside a graph model
/// (``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``).
public protocol ONNXContainerExportable: ONNXLayerExportable {
    /// Appends the container with `appendChildren` translating its children.
    ///
    /// - Parameters:
    ///   - input: The value the container reads.
    ///   - path: The container's state-dictionary path.
    ///   - graph: The graph being built.
    ///   - appendChildren: Appends named layers to the graph (receiving the graph, the layers,
    ///     their input and their parent's path) and returns the last one's output.
    /// - Returns: The container's output value.
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` naming the first descendant
    ///   without a translation.
    func appendONNXNodes(
        input: String, path: String, to graph: inout ONNXGraphBuilder,
        appendingChildrenWith appendChildren: (inout ONNXGraphBuilder, [(name: String, layer: any Layer)], String, String) throws -> String
    ) throws -> String
}

extension ONNXContainerExportable {
    /// Appends the container with every child using its own translation.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try appendONNXNodes(input: input, path: path, to: &graph) { graph, layers, input, path in
            try graph.appendLayers(layers, input: input, path: path)
        }
    }
}
