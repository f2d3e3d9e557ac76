import ModelExport
import NeuralNetwork

extension TemporalConvolutionalNetwork: ONNXExportable {
    /// Appends the network from one window `[T, C, J]` to logits `[1, classCount]`.
    ///
    /// The window is laid out as the network's training batches are (each frame's `C·J`
    /// keypoint values as channels, time last): `Reshape` to `[1, T, C·J]` — row-major, so
    /// channel `c` of joint `j` becomes feature `c·J + j` — and `Transpose` with
    /// `perm = [0, 2, 1]` to `[1, C·J, T]`. Then every sublayer in order:
    /// `BatchNormalization`, per block `Conv → BatchNormalization → Relu`, `GlobalAveragePool →
    /// Flatten`, `Gemm`.
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless
    ///   `C·J` equals ``Configuration-swift.struct/inputChannels``.
    public func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String {
        let features = window.channelCount * window.jointCount
        guard features == configuration.inputChannels, window.windowSize > 0 else {
            throw ModelExportError.inputShapeMismatch(
                .onnx, model: "TemporalConvolutionalNetwork",
                expected: "C·J = \(configuration.inputChannels) values per frame and at least one frame", window: window)
        }
        let shape = try graph.addInitializer("frames.shape", int64s: [1, Int64(window.windowSize), Int64(features)])
        let frames = graph.addNode("Reshape", inputs: [poses, shape], output: "frames")
        let channelsFirst = graph.addNode(
            "Transpose", inputs: [frames], output: "channelsFirst", attributes: [.init("perm", .ints([0, 2, 1]))])
        return try graph.appendLayers(sublayers, input: channelsFirst, path: "")
    }
}
