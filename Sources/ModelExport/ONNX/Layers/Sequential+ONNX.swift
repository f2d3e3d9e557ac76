import NeuralNetwork

extension Sequential: ONNXLayerExportable {
    /// Appends each named layer's nodes in execution order, under `path.<name>`.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` naming the first layer
    ///   without a translation.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try graph.appendLayers(layers, input: input, path: path)
    }
}
