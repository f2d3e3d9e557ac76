import NeuralNetwork

extension SpatialGraphConvolution: CoreMLLayerExportable {
    /// Appends st-gcn's graph convolution on `[1, C_in, T, V]` in st-gcn's order
    /// (`net/utils/tgcn.py`), without reshapes that would need `T`:
    ///
    /// ```
    /// convolution 1×1 (W [K·C_out, C_in, 1, 1], b)        → [1, K·C_out, T, V], split into K × [1, C_out, T, V]
    /// Ã = A ⊙ M (loadConstantND, multiplyBroadcastable)   [K, V, V], split into K × [1, V, V]
    /// Σₖ batchedMatMul(Xₖ, Ãₖ)  (addBroadcastable)        → [1, C_out, T, V]
    /// ```
    ///
    /// The convolution layer is named `path` and holds `path.weight` `[K·C_out, C_in]` (the bytes
    /// of `[K·C_out, C_in, 1, 1]`) and `path.bias`; the constant `path.edgeImportance` `M` keeps its
    /// name and shape; the adjacency `A` (the graph's, or the learned
    /// ``SpatialGraphConvolution/learnedAdjacency``) is the constant `path.adjacency`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        let partitions = graph.partitionCount
        let convolution = try network.addWeightedLayer(path, inputs: [input], .convolution(
            outputChannels: partitions * outChannels, kernelChannels: inChannels, kernelSize: [1, 1], stride: [1, 1],
            dilation: [1, 1], padding: [(0, 0), (0, 0)], weights: weight.value.values, bias: bias.value.values))
        let base = baseAdjacency
        var adjacency = try network.addWeightedLayer(
            path + ".adjacency", inputs: [], .loadConstantND(shape: base.shape, values: base.values))
        if let edgeImportance {
            let importance = try network.addWeightedLayer(
                path + "." + edgeImportance.name, inputs: [],
                .loadConstantND(shape: edgeImportance.value.shape, values: edgeImportance.value.values))
            adjacency = network.addLayer(path + ".effectiveAdjacency", inputs: [adjacency, importance], .multiplyBroadcastable)
        }
        let features = partitions == 1 ? [convolution] : network.addSplit(path + ".partitions", input: convolution, axis: 1, parts: partitions)
        let graphs = partitions == 1 ? [adjacency] : network.addSplit(path + ".partitionGraphs", input: adjacency, axis: 0, parts: partitions)
        var sum: String?
        for k in 0..<partitions {
            let aggregated = network.addLayer("\(path).aggregated\(k)", inputs: [features[k], graphs[k]], .batchedMatMul)
            sum = sum.map { network.addLayer("\(path).sum\(k)", inputs: [$0, aggregated], .addBroadcastable) } ?? aggregated
        }
        return sum ?? convolution
    }
}
