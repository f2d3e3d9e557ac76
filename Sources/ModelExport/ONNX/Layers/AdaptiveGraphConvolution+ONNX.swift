import NeuralNetwork

extension AdaptiveGraphConvolution: ONNXLayerExportable {
    /// Appends ST-GCN++'s graph unit on `[1, C_in, T, V]`: the graph convolution over the learned
    /// adjacency (initializer `path.graphConvolution.adjacency`), `BatchNormalization`, the
    /// residual (the input, or `Conv 1×1` and `BatchNormalization` named `path.down.0`,
    /// `path.down.1`), `Add` and `Relu`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let spatial = try graph.appendFrameLayers(
            [("graphConvolution", graphConvolution), ("batchNorm", batchNorm)], input: input, path: path)
        let skip = try down.map { try graph.appendFrameLayers([("down", $0)], input: input, path: path) } ?? input
        let sum = graph.addNode("Add", inputs: [spatial, skip], output: path + ".sum")
        return graph.addNode("Relu", inputs: [sum], output: path)
    }
}
