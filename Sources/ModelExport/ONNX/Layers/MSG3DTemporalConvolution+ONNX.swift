import NeuralNetwork

extension MSG3DTemporalConvolution: ONNXLayerExportable {
    /// Appends CTR-GCN's multi-scale temporal convolution on `[1, C_in, T, V]` as frame layers
    /// (``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``): every branch (`Conv` k×1,
    /// `BatchNormalization`, `Relu`, `MaxPool` 3×1), one `Concat` on the channels and a `Relu`;
    /// dropout is the identity.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try graph.appendFrameLayers(sublayers, input: input, path: path)
    }
}
