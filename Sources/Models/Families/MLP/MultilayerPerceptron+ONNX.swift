import ModelExport
import NeuralNetwork

extension MultilayerPerceptron: ONNXExportable {
    /// Appends the network from one window `[T, C, J]` to logits `[1, classCount]`.
    ///
    /// `Reshape` to `[1, T, C·J]` and `Transpose` (`perm = [0, 2, 1]`) to the training layout
    /// `[1, C·J, T]`, then every sublayer in order: (keypoint normalization,)
    /// `BatchNormalization`, `Flatten`, `Gemm → Relu`, `Gemm`.
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the window
    ///   is exactly `[frames, C, J]` with `C·J = inputChannels`.
    public func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String {
        let features = window.channelCount * window.jointCount
        guard features == configuration.inputChannels, window.windowSize == configuration.frames else {
            throw ModelExportError.inputShapeMismatch(
                .onnx, model: "MultilayerPerceptron",
                expected: "\(configuration.frames) frames of C·J = \(configuration.inputChannels) values", window: window)
        }
        let channelsFirst = try graph.appendChannelsFirstWindow(poses: poses, window: window)
        return try graph.appendLayers(sublayers, input: channelsFirst, path: "")
    }
}
