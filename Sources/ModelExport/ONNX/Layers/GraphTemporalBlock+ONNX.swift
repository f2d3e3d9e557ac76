import NeuralNetwork

extension GraphTemporalBlock: ONNXLayerExportable {
    /// Appends one block on `[1, C_in, T, V]`: the graph unit, the temporal unit (both as frame
    /// layers), the residual (`Add` of the input, or of a `Conv 1×1` with the block's stride and its
    /// `BatchNormalization`), and a final `Relu`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        var output = try graph.appendFrameLayers([("gcn", gcn), ("tcn", tcn)], input: input, path: path)
        switch residual {
        case .none:
            break
        case .identity:
            output = graph.addNode("Add", inputs: [output, input], output: path + ".sum")
        case .projection:
            guard let residualProjection else {
                throw ModelExportError.unsupportedLayer(.onnx, path: path + ".residual", type: "missing projection")
            }
            let shortcut = try graph.appendFrameLayers([("residual", residualProjection)], input: input, path: path)
            output = graph.addNode("Add", inputs: [output, shortcut], output: path + ".sum")
        }
        return graph.addNode("Relu", inputs: [output], output: path)
    }
}
