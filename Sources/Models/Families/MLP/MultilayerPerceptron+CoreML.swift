import ModelExport
import NeuralNetwork

extension MultilayerPerceptron: CoreMLExportable {
    /// Appends the network from one window `[T, C, J]` to logits `[1, classCount]`.
    ///
    /// `reshapeStatic`/`transpose` to `[1, C·J, T, 1]`, then every sublayer in order: batch norm,
    /// `flattenTo2D` (`[1, C·J·T]`, the order of ``Flatten`` on `[1, C·J, T]`), inner product →
    /// ReLU, inner product.
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the
    ///   window is exactly `[frames, C, J]` with `C·J = inputChannels`.
    public func appendCoreMLLayers(poses: String, window: KeypointWindowShape, to network: inout CoreMLNetworkBuilder) throws -> String {
        guard window.channelCount * window.jointCount == configuration.inputChannels, window.windowSize == configuration.frames else {
            throw ModelExportError.inputShapeMismatch(
                .coreML, model: "MultilayerPerceptron",
                expected: "\(configuration.frames) frames of C·J = \(configuration.inputChannels) values", window: window)
        }
        let channelsFirst = network.appendChannelsFirstWindow(poses: poses, window: window)
        return try network.appendLayers(sublayers, input: channelsFirst, path: "")
    }
}
