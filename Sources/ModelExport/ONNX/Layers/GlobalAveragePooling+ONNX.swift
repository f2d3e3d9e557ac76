import NeuralNetwork

extension GlobalAveragePooling: ONNXLayerExportable {
    /// Appends `GlobalAveragePool` (`[N, C, T] → [N, C, 1]`, the mean over time) and
    /// `Flatten` with `axis = 1` (`→ [N, C]`), ONNX `docs/Operators.md` GlobalAveragePool-1 and
    /// Flatten-13.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let pooled = graph.addNode("GlobalAveragePool", inputs: [input], output: path + ".pooled")
        return graph.addNode("Flatten", inputs: [pooled], output: path, attributes: [.init("axis", .int(1))])
    }
}
