import NeuralNetwork

extension Flatten: CoreMLLayerExportable {
    /// Appends `flattenTo2D` with `axis = 1`: `[1, C, T, 1] → [1, C·T]`, row-major as ``Flatten``
    /// flattens `[N, C, T]`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        network.addLayer(path, inputs: [input], .flattenTo2D(axis: 1))
    }
}
