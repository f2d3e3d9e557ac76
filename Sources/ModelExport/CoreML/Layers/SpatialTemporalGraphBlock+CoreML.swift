import NeuralNetwork

extension SpatialTemporalGraphBlock: CoreMLLayerExportable {
    /// Appends one ST-GCN block on `[1, C_in, T, V]`: the graph convolution, the temporal part
    /// (batch norm, ReLU, `k×1` convolution, batch norm; dropout is the identity), the residual
    /// (`addBroadcastable` of the input, or of the projection `1×1` convolution with the block's
    /// stride and its batch norm) and a final ReLU.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` for a sublayer without a translation.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        let spatial = try graphConvolution.appendCoreMLLayers(input: input, path: path + ".graphConvolution", to: &network)
        var output = try network.appendLayers(temporal.layers, input: spatial, path: path + ".temporal")
        switch residual {
        case .none:
            break
        case .identity:
            output = network.addLayer(path + ".sum", inputs: [output, input], .addBroadcastable)
        case .projection:
            guard let projection = residualProjection else {
                throw ModelExportError.unsupportedLayer(.coreML, path: path + ".residual", type: "missing projection")
            }
            let shortcut = try network.appendLayers([("residual", projection)], input: input, path: path)
            output = network.addLayer(path + ".sum", inputs: [output, shortcut], .addBroadcastable)
        }
        return network.addLayer(path, inputs: [output], .relu)
    }
}
