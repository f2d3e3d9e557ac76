import NeuralNetwork

extension AdaptiveGraphConvolution: CoreMLLayerExportable {
    /// Appends ST-GCN++'s graph unit on `[1, C_in, T, V]`: the graph convolution over the learned
    /// adjacency (the constant `path.graphConvolution.adjacency`), batch norm, the residual (the
    /// input, or the `1×1` convolution and batch norm `path.down.0`, `path.down.1`),
    /// `addBroadcastable` and a ReLU.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        let spatial = try network.appendLayers(
            [("graphConvolution", graphConvolution), ("batchNorm", batchNorm)], input: input, path: path)
        let skip = try down.map { try network.appendLayers([("down", $0)], input: input, path: path) } ?? input
        let sum = network.addLayer(path + ".sum", inputs: [spatial, skip], .addBroadcastable)
        return network.addLayer(path, inputs: [sum], .relu)
    }
}
