import NeuralNetwork

extension MultiScaleTemporalConvolution: CoreMLLayerExportable {
    /// Appends ST-GCN++'s multi-scale temporal convolution on `[1, C_in, T, V]`: every branch
    /// (`k×1` convolutions, batch norms, ReLUs, max pooling), one `concatND` on the channels, the
    /// transform and the final batch norm; dropout is the identity.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        try network.appendLayers(sublayers, input: input, path: path)
    }
}
