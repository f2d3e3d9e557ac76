import ModelExport
import NeuralNetwork

extension TemporalConvolutionalNetwork: CoreMLExportable {
    /// Appends the network from one window `[T, C, J]` to logits `[1, classCount]`.
    ///
    /// `reshapeStatic`/`transpose` to `[1, C·J, T, 1]` (the training layout `[1, C·J, T]` as the
    /// rank-4 blob Core ML's convolutions read), then every sublayer in order: batch norm, per
    /// block `k×1` convolution → batch norm → ReLU, global average pooling → `flattenTo2D`,
    /// inner product.
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless
    ///   `C·J` equals ``Configuration-swift.struct/inputChannels``.
    public func appendCoreMLLayers(poses: String, window: KeypointWindowShape, to network: inout CoreMLNetworkBuilder) throws -> String {
        guard window.channelCount * window.jointCount == configuration.inputChannels, window.windowSize > 0 else {
            throw ModelExportError.inputShapeMismatch(
                .coreML, model: "TemporalConvolutionalNetwork",
                expected: "C·J = \(configuration.inputChannels) values per frame and at least one frame", window: window)
        }
        let channelsFirst = network.appendChannelsFirstWindow(poses: poses, window: window)
        return try network.appendLayers(sublayers, input: channelsFirst, path: "")
    }
}
