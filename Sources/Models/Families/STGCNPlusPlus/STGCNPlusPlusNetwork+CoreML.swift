import ModelExport
import NeuralNetwork

extension STGCNPlusPlusNetwork: CoreMLExportable {
    /// Appends ST-GCN++ from one window `[T, C, V]` to logits `[1, classCount]` through its head
    /// (``GraphNetworkHead/appendCoreMLLayers(poses:window:model:sublayers:to:)``).
    ///
    /// - Throws: ``ModelExportError/inputShapeMismatch(_:model:expected:window:)`` unless the window
    ///   has `C` channels and `V` joints of the network's configuration;
    ///   ``ModelExportError/unsupportedLayer(_:path:type:)`` for a sublayer without a translation
    ///   (the in-model keypoint normalizations have none yet).
    public func appendCoreMLLayers(poses: String, window: KeypointWindowShape, to network: inout CoreMLNetworkBuilder) throws -> String {
        try head.appendCoreMLLayers(poses: poses, window: window, model: "STGCNPlusPlusNetwork", sublayers: sublayers, to: &network)
    }
}
