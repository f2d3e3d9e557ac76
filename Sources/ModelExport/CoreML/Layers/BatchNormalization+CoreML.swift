import NeuralNetwork

extension BatchNormalization: CoreMLLayerExportable {
    /// Appends one `batchnorm` layer (`NeuralNetwork.proto`, `BatchnormLayerParams`, rank-4
    /// input `[1, C, H, W]`): `y = γ (x − μ) / √(σ² + ε) + β` per channel, the evaluation-mode
    /// formula of ``BatchNormalization``, with `gamma` = `path.weight`, `beta` = `path.bias`,
    /// `mean` = `path.runningMean`, `variance` = `path.runningVariance`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        try network.addWeightedLayer(path, inputs: [input], .batchNormalization(
            channels: channels, epsilon: epsilon, gamma: weight.value.values, beta: bias.value.values,
            mean: runningMean.value.values, variance: runningVariance.value.values))
    }
}
