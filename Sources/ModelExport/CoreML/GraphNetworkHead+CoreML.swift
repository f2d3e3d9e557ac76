import NeuralNetwork

extension GraphNetworkHead {
    /// Appends a graph classifier from one window `[T, C, V]` to logits `[1, classCount]`.
    ///
    /// `reshapeStatic`/`transpose` to `[1, C·V, T, 1]`, (keypoint normalization and) batch norm
    /// (data_bn), `reshapeStatic [1, C, V, T]` and `transpose [0, 1, 3, 2]` to the graph layout
    /// `[1, C, T, V]`, every block, global average pooling over `T` and `V` → `flattenTo2D`, and
    /// the inner product. A sublayer of `model` it does not translate is an error, never skipped.
    ///
    /// - Parameters:
    ///   - poses: The model input, one window `[T, C, V]`.
    ///   - window: The window's shape.
    ///   - model: The network's type name, for errors.
    ///   - sublayers: The network's sublayers, each of which must be one of the head's.
    ///   - network: The network to append to.
    /// - Returns: The logits' blob name.
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the window
    ///   has `C` channels and `V` joints; ``ModelExportError/unsupportedLayer(_:path:type:)`` for a
    ///   sublayer without a translation (the in-model keypoint normalizations have none yet).
    public func appendCoreMLLayers(
        poses: String, window: KeypointWindowShape, model: String, sublayers: [(name: String, layer: any Layer)],
        to network: inout CoreMLNetworkBuilder
    ) throws -> String {
        let (channels, joints) = (channelCount, jointCount)
        guard window.channelCount == channels, window.jointCount == joints, window.windowSize > 0 else {
            throw ModelExportError.inputShapeMismatch(
                .coreML, model: model, expected: "\(channels) channels of \(joints) joints and at least one frame", window: window)
        }
        var head: [(name: String, layer: any Layer)] = inputLayers
        head.append(("inputNormalization", inputNormalization))
        let tail: [(name: String, layer: any Layer)] = [("blocks", blocks), ("pooling", pooling), ("classifier", classifier)]
        for (name, layer) in sublayers where !(head + tail).contains(where: { $0.name == name && $0.layer === layer }) {
            throw ModelExportError.unsupportedLayer(.coreML, path: name, type: String(describing: type(of: layer)))
        }
        var blob = network.appendChannelsFirstWindow(poses: poses, window: window)
        blob = try network.appendLayers(head, input: blob, path: "")
        blob = network.addLayer("jointsByFrame", inputs: [blob], .reshapeStatic(targetShape: [1, channels, joints, window.windowSize]))
        blob = network.addLayer("graphInput", inputs: [blob], .transpose(axes: [0, 1, 3, 2]))
        return try network.appendLayers(tail, input: blob, path: "")
    }
}
