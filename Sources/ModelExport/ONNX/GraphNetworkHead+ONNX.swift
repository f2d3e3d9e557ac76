import NeuralNetwork

extension GraphNetworkHead {
    /// Appends a graph classifier from one window `[T, C, V]` to logits `[1, classCount]`.
    ///
    /// `Reshape`/`Transpose` to the training layout `[1, C·V, T]`, then (keypoint normalization
    /// and) `BatchNormalization` (data_bn), `Reshape [1, C, V, T]` and `Transpose perm [0, 1, 3, 2]`
    /// to the graph layout `[1, C, T, V]`, every block, the mean over `T` and `V`
    /// (`GlobalAveragePool → Flatten`) and `Gemm`. A sublayer of `model` it does not translate is
    /// an error, never skipped.
    ///
    /// - Parameters:
    ///   - poses: The graph input, one window `[T, C, V]`.
    ///   - window: The window's shape.
    ///   - model: The network's type name, for errors.
    ///   - sublayers: The network's sublayers, each of which must be one of the head's.
    ///   - graph: The graph to append to.
    /// - Returns: The logits' value name.
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the window
    ///   has `C` channels and `V` joints; ``ModelExportError/unsupportedLayer(_:path:type:)`` for a
    ///   sublayer without a translation.
    public func appendONNXNodes(
        poses: String, window: KeypointWindowShape, model: String, sublayers: [(name: String, layer: any Layer)],
        to graph: inout ONNXGraphBuilder
    ) throws -> String {
        let (channels, joints) = (channelCount, jointCount)
        guard window.channelCount == channels, window.jointCount == joints, window.windowSize > 0 else {
            throw ModelExportError.inputShapeMismatch(
                .onnx, model: model, expected: "\(channels) channels of \(joints) joints and at least one frame", window: window)
        }
        var head: [(name: String, layer: any Layer)] = inputLayers
        head.append(("inputNormalization", inputNormalization))
        let translated = head + [("blocks", blocks), ("classifier", classifier)]
        for (name, layer) in sublayers where !translated.contains(where: { $0.name == name && $0.layer === layer }) {
            throw ModelExportError.unsupportedLayer(.onnx, path: name, type: String(describing: type(of: layer)))
        }
        var value = try graph.appendChannelsFirstWindow(poses: poses, window: window)
        value = try graph.appendLayers(head, input: value, path: "")
        let shape = [1, Int64(channels), Int64(joints), Int64(window.windowSize)]
        let split = graph.addNode(
            "Reshape", inputs: [value, try graph.addInitializer("graphInput.shape", int64s: shape)], output: "jointsByFrame")
        value = graph.addNode("Transpose", inputs: [split], output: "graphInput", attributes: [.init("perm", .ints([0, 1, 3, 2]))])
        value = try graph.appendLayers([("blocks", blocks)], input: value, path: "")
        value = try pooling.appendONNXNodes(input: value, path: "pooling", to: &graph)
        return try graph.appendLayers([("classifier", classifier)], input: value, path: "")
    }
}
