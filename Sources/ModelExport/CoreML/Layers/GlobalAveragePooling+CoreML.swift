import NeuralNetwork

extension GlobalAveragePooling: CoreMLLayerExportable {
    /// Appends global average `pooling` (`[1, C, H, W] → [1, C, 1, 1]`, the mean over time, and
    /// over joints in a graph network) and `flattenTo2D` with `axis = 1` (`→ [1, C]`).
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        let pooled = network.addLayer(path + ".pooled", inputs: [input], .globalAveragePooling)
        return network.addLayer(path, inputs: [pooled], .flattenTo2D(axis: 1))
    }
}
