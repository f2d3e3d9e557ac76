import NeuralNetwork

extension TemporalMaxPooling: CoreMLLayerExportable {
    /// Appends one max `pooling` layer (`PoolingLayerParams`, `MAX`) with kernel `[k, 1]`, strides
    /// `[s, 1]` and `valid` padding `[(p, p), (0, 0)]` over the rank-4 blob `[1, C, T, W]`, so
    /// `T_out = ⌊(T + 2p − k) / s⌋ + 1` as in ``TemporalMaxPooling``.
    ///
    /// PyTorch pads max pooling with −∞; `scripts/check-coreml.py` evaluates Core ML's padding the
    /// same way. In ST-GCN++ the pooling reads a ReLU's output, so any padding value of at most 0
    /// gives the same maxima.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        network.addLayer(path, inputs: [input], .maxPooling(
            kernelSize: [kernelSize, 1], stride: [stride, 1], padding: [(padding, padding), (0, 0)]))
    }
}
