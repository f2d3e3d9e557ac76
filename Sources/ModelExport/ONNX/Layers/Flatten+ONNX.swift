import NeuralNetwork

extension Flatten: ONNXLayerExportable {
    /// Appends one `Flatten` node with `axis = 1` (ONNX `docs/Operators.md`, Flatten-13):
    /// `[N, d₁, d₂, …] → [N, d₁·d₂·…]`, row-major as ``Flatten``.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        graph.addNode("Flatten", inputs: [input], output: path, attributes: [.init("axis", .int(1))])
    }
}
