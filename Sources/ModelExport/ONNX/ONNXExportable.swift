import NeuralNetwork

/// A classifier that can describe itself as an ONNX graph from one keypoint window to logits.
///
/// The model owns the whole path from the exported input — one window `[T, C, J]` of
/// keypoints, Create ML's `poses` — to logits `[1, classCount]`, including the rearrangement
/// into its own input layout (a temporal network flattens joints into channels, a graph
/// network keeps them apart). ``ONNXClassifierExporter`` adds the graph input, the softmax and
/// the `labelProbabilities` output, so adding a model family means adding one conformance.
public protocol ONNXExportable: Classifier {
    /// Appends the nodes that compute logits from one window of keypoints.
    ///
    /// - Parameters:
    ///   - poses: The value name of the window, float32 `[T, C, J]`.
    ///   - window: The window's shape.
    ///   - graph: The graph being built.
    /// - Returns: The value name of the logits, `[1, classCount]`.
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` when the window
    ///   does not fit the model, or any error of its layers' translations.
    func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String
}
