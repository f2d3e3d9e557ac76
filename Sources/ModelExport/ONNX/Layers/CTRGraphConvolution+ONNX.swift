import NeuralNetwork

extension CTRGraphConvolution: ONNXLayerExportable {
    /// Appends CTR-GCN's graph unit on `[1, C_in, T, V]`: the initializers `path.adjacency`
    /// `[K, V, V]` and `path.alpha` `[1]` under their state-dictionary names, each subset's
    /// refinement (``ChannelwiseTopologyRefinement``, reading `Gather(adjacency, k, axis 0)`),
    /// their `Add`, `BatchNormalization`, the residual (the input, or `Conv 1×1` and
    /// `BatchNormalization` named `path.down.0`, `path.down.1`), `Add` and `Relu`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let adjacency = try graph.addInitializer(path + "." + self.adjacency.name, tensor: self.adjacency.value)
        let alpha = try graph.addInitializer(path + "." + self.alpha.name, tensor: self.alpha.value)
        var sum: String?
        for (k, refinement) in refinements.enumerated() {
            let subset = graph.addNode(
                "Gather", inputs: [adjacency, try graph.addInitializer("\(path).subset\(k)", int64Scalar: Int64(k))],
                output: "\(path).adjacency\(k)", attributes: [.init("axis", .int(0))])
            let refined = try refinement.appendONNXNodes(
                input: input, path: "\(path).convs.\(k)", subsetAdjacency: subset, alpha: alpha, to: &graph)
            sum = sum.map { graph.addNode("Add", inputs: [$0, refined], output: "\(path).sum\(k)") } ?? refined
        }
        guard let sum else { throw ModelExportError.unsupportedLayer(.onnx, path: path, type: "CTRGraphConvolution without subsets") }
        let normalized = try graph.appendFrameLayers([("batchNorm", batchNorm)], input: sum, path: path)
        let skip = try down.map { try graph.appendFrameLayers([("down", $0)], input: input, path: path) } ?? input
        let total = graph.addNode("Add", inputs: [normalized, skip], output: path + ".residualSum")
        return graph.addNode("Relu", inputs: [total], output: path)
    }
}
