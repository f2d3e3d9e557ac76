import NeuralNetwork

extension TemporalConvolution: ONNXLayerExportable {
    /// Appends one `Conv` node (ONNX `docs/Operators.md`, Conv-11) on `[N, inChannels, T]`.
    ///
    /// Inputs `X`, `W` = `path.weight` `[outChannels, inChannels, k]`, `B` = `path.bias`;
    /// attributes `kernel_shape [k]`, `strides [s]`, `pads [p, p]` (begin, end),
    /// `dilations [d]`, `group 1` — PyTorch's `Conv1d` arithmetic, which ``TemporalConvolution``
    /// follows.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        var inputs = [input, try graph.addInitializer(path + "." + weight.name, tensor: weight.value)]
        if let bias {
            inputs.append(try graph.addInitializer(path + "." + bias.name, tensor: bias.value))
        }
        return graph.addNode("Conv", inputs: inputs, output: path, attributes: [
            .init("dilations", .ints([Int64(dilation)])),
            .init("group", .int(1)),
            .init("kernel_shape", .ints([Int64(kernelSize)])),
            .init("pads", .ints([Int64(padding), Int64(padding)])),
            .init("strides", .ints([Int64(stride)])),
        ])
    }
}
