import NeuralNetwork

extension GraphTemporalBlock: CoreMLLayerExportable {
    /// Appends one block on `[1, C_in, T, V]`: the graph unit, the temporal unit, the residual
    /// (`addBroadcastable` of the input, or of the projection `1×1` convolution with the block's
    /// stride and its batch norm) and a final ReLU.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` for a unit without a translation.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        var output = try network.appendLayers([("gcn", gcn), ("tcn", tcn)], input: input, path: path)
        switch residual {
        case .none:
            break
        case .identity:
            output = network.addLayer(path + ".sum", inputs: [output, input], .addBroadcastable)
        case .projection:
            guard let residualProjection else {
                throw ModelExportError.unsupportedLayer(.coreML, path: path + ".residual", type: "missing projection")
            }
            let shortcut = try network.appendLayers([("residual", residualProjection)], input: input, path: path)
            output = network.addLayer(path + ".sum", inputs: [output, shortcut], .addBroadcastable)
        }
        return network.addLayer(path, inputs: [output], .relu)
    }
}
