import NeuralNetwork

/// A classifier that can describe itself as a Core ML network from one keypoint window to logits.
///
/// As for ``ONNXExportable``, the model owns the path from Create ML's input `poses`
/// `[T, C, J]` to logits `[1, classCount]`, including the rearrangement into its own layout;
/// ``CoreMLClassifierExporter`` adds the input, the softmax and the classifier outputs.
public protocol CoreMLExportable: Classifier {
    /// Appends the layers that compute logits `[1, classCount]` from one window.
    ///
    /// - Parameters:
    ///   - poses: The blob name of the window, float32 `[T, C, J]`.
    ///   - window: The window's shape.
    ///   - network: The network being built.
    /// - Returns: The blob name of the logits, `[1, classCount]`.
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` when the window
    ///   does not fit the model, or any error of its layers' translations.
    func appendCoreMLLayers(poses: String, window: KeypointWindowShape, to network: inout CoreMLNetworkBuilder) throws -> String
}

/// A layer that can describe its evaluation-mode forward pass as Core ML layers.
///
/// The layer reads the Core ML form of its input: what the trainer holds as `[N, C, T]` is the
/// rank-4 blob `[1, C, T, 1]` (Core ML's convolution, batch norm and pooling need rank 4), and
/// `[N, C, T, V]` stays as it is, so a temporal convolution is one `k×1` convolution in both.
/// Layers whose weights come from the state dictionary are named by their path, and their
/// weight fields hold the tensors of `path.<tensor name>` unchanged (see `scripts/check-coreml.py`).
public protocol CoreMLLayerExportable: Layer {
    /// Appends the layers of this layer's evaluation-mode forward pass.
    ///
    /// - Parameters:
    ///   - input: The blob name of the layer's input.
    ///   - path: The layer's state-dictionary path, e.g. `"blocks.0.convolution"`.
    ///   - network: The network being built.
    /// - Returns: The blob name of the layer's output.
    /// - Throws: ``ModelExportError`` when the layer or a sublayer cannot be translated.
    func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String
}
