import NeuralNetwork

extension TemporalMaxPooling: ONNXLayerExportable {
    /// Appends one `MaxPool` node (ONNX `docs/Operators.md`, MaxPool-12) on `[N, C, T]` with
    /// `kernel_shape [k]`, `strides [s]`, `pads [p, p]`, or on a graph model's `[N, C, T, V]` with
    /// `kernel_shape [k, 1]`, `strides [s, 1]`, `pads [p, 0, p, 0]` when `rank4` is set by
    /// ``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``. ONNX's padding never wins a
    /// maximum, as PyTorch's −∞ padding.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        appendONNXNodes(input: input, path: path, rank4: false, to: &graph)
    }

    /// Appends the `MaxPool` node for rank-3 (`rank4` false) or rank-4 input.
    public func appendONNXNodes(input: String, path: String, rank4: Bool, to graph: inout ONNXGraphBuilder) -> String {
        let (k, s, p) = (Int64(kernelSize), Int64(stride), Int64(padding))
        return graph.addNode("MaxPool", inputs: [input], output: path, attributes: [
            .init("kernel_shape", .ints(rank4 ? [k, 1] : [k])),
            .init("pads", .ints(rank4 ? [p, 0, p, 0] : [p, p])),
            .init("strides", .ints(rank4 ? [s, 1] : [s])),
        ])
    }
}
