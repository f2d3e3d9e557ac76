import NeuralNetwork

extension MultiScaleTemporalConvolution: ONNXLayerExportable {
    /// Appends ST-GCN++'s multi-scale temporal convolution on `[1, C_in, T, V]` as frame layers
    /// (``ONNXGraphBuilder/appendFrameLayers(_:input:path:)``): every branch (`Conv` k×1,
    /// `BatchNormalization`, `Relu`, `MaxPool` k×1), one `Concat` on the channels, the transform
    /// and the final `BatchNormalization`; dropout is the identity.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        try graph.appendFrameLayers(sublayers, input: input, path: path)
    }
}
