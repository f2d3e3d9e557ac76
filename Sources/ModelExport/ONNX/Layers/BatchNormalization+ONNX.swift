import NeuralNetwork

extension BatchNormalization: ONNXLayerExportable {
    /// Appends one `BatchNormalization` node in inference mode (ONNX `docs/Operators.md`,
    /// BatchNormalization-15, `training_mode = 0`): `Y = (X − input_mean) / √(input_var + ε) ·
    /// scale + B` per channel (axis 1), the evaluation-mode formula of ``BatchNormalization``.
    ///
    /// Inputs: `scale` = `path.weight`, `B` = `path.bias`, `input_mean` = `path.runningMean`,
    /// `input_var` = `path.runningVariance`. ONNX's `momentum` weighs the *old* running
    /// statistics, so it is `1 − momentum` of PyTorch's convention (unused at inference).
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let inputs = [
            input,
            try graph.addInitializer(path + "." + weight.name, tensor: weight.value),
            try graph.addInitializer(path + "." + bias.name, tensor: bias.value),
            try graph.addInitializer(path + "." + runningMean.name, tensor: runningMean.value),
            try graph.addInitializer(path + "." + runningVariance.name, tensor: runningVariance.value),
        ]
        return graph.addNode("BatchNormalization", inputs: inputs, output: path, attributes: [
            .init("epsilon", .float(epsilon)),
            .init("momentum", .float(1 - momentum)),
        ])
    }
}
