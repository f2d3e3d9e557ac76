import NeuralNetwork

extension Linear: CoreMLLayerExportable {
    /// Appends one `innerProduct` layer (`InnerProductLayerParams`) on `[1, inputs]`:
    /// `y = W x + b`, `weights` = `path.weight` `[outputs, inputs]` (PyTorch's `nn.Linear`
    /// layout, the field's `[C_out, C_in]`), `bias` = `path.bias`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        try network.addWeightedLayer(path, inputs: [input], .innerProduct(
            inputChannels: inputs, outputChannels: outputs, weights: weight.value.values, bias: bias?.value.values))
    }
}
