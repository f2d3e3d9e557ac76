import NeuralNetwork

extension TemporalConvolution: CoreMLLayerExportable {
    /// Appends one `convolution` layer (`ConvolutionLayerParams`) with kernel `[k, 1]` over the
    /// rank-4 blob `[1, inChannels, T, W]` (`W` = 1 in a temporal network, the joints `V` in a
    /// graph network): strides `[s, 1]`, dilations `[d, 1]`, `valid` padding with
    /// `[(p, p), (0, 0)]`, so `T_out = ⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1`, PyTorch's `Conv1d`
    /// arithmetic. `weights` = `path.weight` `[out, in, k]`, whose row-major bytes are those of the
    /// field's `[out, in, k, 1]`; `bias` = `path.bias`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        try network.addWeightedLayer(path, inputs: [input], .convolution(
            outputChannels: outChannels, kernelChannels: inChannels, kernelSize: [kernelSize, 1], stride: [stride, 1],
            dilation: [dilation, 1], padding: [(padding, padding), (0, 0)], weights: weight.value.values,
            bias: bias?.value.values))
    }
}
