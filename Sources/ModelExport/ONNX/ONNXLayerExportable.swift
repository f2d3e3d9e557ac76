import NeuralNetwork

/// A layer that can describe its evaluation-mode forward pass as ONNX operators.
///
/// Each conforming layer appends nodes that compute exactly what
/// `forward(_:training: false)` computes, with its parameters and buffers added as
/// initializers named by their state-dictionary paths (`path + "." + tensor name`). Composite
/// layers delegate to their sublayers with ``ONNXGraphBuilder/appendLayers(_:input:path:)``, so
/// a new model made of exportable layers needs no change to the writer.
public protocol ONNXLayerExportable: Layer {
    /// Appends the nodes of this layer's evaluation-mode forward pass.
    ///
    /// - Parameters:
    ///   - input: The value name of the layer's input, with the shape `forward` expects.
    ///   - path: The layer's state-dictionary path, e.g. `"blocks.0.convolution"`.
    ///   - graph: The graph being built.
    /// - Returns: The value name of the layer's output.
    /// - Throws: ``ModelExportError`` when the layer or a sublayer cannot be translated.
    func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String
}
