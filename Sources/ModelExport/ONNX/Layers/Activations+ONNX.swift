import NeuralNetwork

extension ReLU: ONNXLayerExportable {
    /// Appends one `Relu` node (ONNX `docs/Operators.md`, Relu-14): `Y = max(X, 0)`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        graph.addNode("Relu", inputs: [input], output: path)
    }
}

extension Dropout: ONNXLayerExportable {
    /// Adds nothing: in evaluation mode dropout is the identity, so the layer's output is its input.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        input
    }
}
