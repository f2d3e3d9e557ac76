import ModelExport
import NeuralNetwork

extension CTRGCNNetwork: ONNXExportable {
    /// Appends CTR-GCN from one window `[T, C, V]` to logits `[1, classCount]` through its head
    /// (``GraphNetworkHead/appendONNXNodes(poses:window:model:sublayers:to:)``), every block being a
    /// ``GraphTemporalBlock`` of a ``CTRGraphConvolution`` and an ``MSG3DTemporalConvolution``.
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the window
    ///   has `C` channels and `V` joints of the network's configuration;
    ///   ``ModelExportError/unsupportedLayer(_:path:type:)`` for a sublayer without a translation.
    public func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String {
        try head.appendONNXNodes(poses: poses, window: window, model: "CTRGCNNetwork", sublayers: sublayers, to: &graph)
    }
}
