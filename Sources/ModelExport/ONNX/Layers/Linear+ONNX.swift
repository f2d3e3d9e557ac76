import NeuralNetwork

extension Linear: ONNXLayerExportable {
    /// Appends one `Gemm` node (ONNX `docs/Operators.md`, Gemm-13):
    /// `Y = A · Bᵀ + C` with `A` the input `[N, inputs]`, `B` = `path.weight` `[outputs, inputs]`
    /// (`transB = 1`, PyTorch's `nn.Linear` layout) and `C` = `path.bias` `[outputs]`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        var inputs = [input, try graph.addInitializer(path + "." + weight.name, tensor: weight.value)]
        if let bias {
            inputs.append(try graph.addInitializer(path + "." + bias.name, tensor: bias.value))
        }
        return graph.addNode("Gemm", inputs: inputs, output: path, attributes: [.init("transB", .int(1))])
    }
}
