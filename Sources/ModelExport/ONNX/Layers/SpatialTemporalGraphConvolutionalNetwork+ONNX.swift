import NeuralNetwork

extension SpatialTemporalGraphConvolutionalNetwork: ONNXExportable {
    /// Appends ST-GCN from one window `[T, C, V]` to logits `[1, classCount]`.
    ///
    /// `Reshape`/`Transpose` to the training layout `[1, C·V, T]`, then (keypoint normalization
    /// and) `BatchNormalization` (data_bn), `Reshape [1, C, V, T]` and `Transpose perm [0, 1, 3, 2]`
    /// to the graph layout `[1, C, T, V]`, every block (`SpatialTemporalGraphBlock`), the mean
    /// over `T` and `V` (`GlobalAveragePool → Flatten`) and `Gemm`.
    ///
    /// - Throws: ``ONNXExportError/inputShapeMismatch(model:expected:window:)`` unless the window
    ///   has `C` channels and `V` joints of the network's configuration.
    public func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String {
        let (channels, joints) = (configuration.channelCount, configuration.graph.jointCount)
        guard window.channelCount == channels, window.jointCount == joints, window.windowSize > 0 else {
            throw ONNXExportError.inputShapeMismatch(
                model: "SpatialTemporalGraphConvolutionalNetwork",
                expected: "\(channels) channels of \(joints) joints and at least one frame", window: window)
        }
        var value = try graph.appendChannelsFirstWindow(poses: poses, window: window)
        func layer(_ name: String) -> (any Layer)? { sublayers.first { $0.name == name }?.layer }
        for name in ["keypointNormalization", "inputNormalization"] {
            guard let layer = layer(name) else { continue }
            value = try graph.appendLayers([(name, layer)], input: value, path: "")
        }
        let split = graph.addNode(
            "Reshape",
            inputs: [value, try graph.addInitializer("graphInput.shape", int64s: [1, Int64(channels), Int64(joints), Int64(window.windowSize)])],
            output: "jointsByFrame")
        value = graph.addNode("Transpose", inputs: [split], output: "graphInput", attributes: [.init("perm", .ints([0, 1, 3, 2]))])
        if let blocks = layer("blocks") {
            value = try graph.appendLayers([("blocks", blocks)], input: value, path: "")
        }
        value = try GlobalAveragePooling().appendONNXNodes(input: value, path: "pooling", to: &graph)
        guard let classifier = layer("classifier") else {
            throw ONNXExportError.unsupportedLayer(path: "classifier", type: "missing")
        }
        return try graph.appendLayers([("classifier", classifier)], input: value, path: "")
    }
}
