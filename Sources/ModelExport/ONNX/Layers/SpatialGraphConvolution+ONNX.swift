import NeuralNetwork

extension SpatialGraphConvolution: ONNXLayerExportable {
    /// Appends st-gcn's graph convolution on `[1, C_in, T, V]` (ONNX `docs/Operators.md`,
    /// operator set 17), in st-gcn's own order (`net/utils/tgcn.py`):
    ///
    /// ```
    /// Conv 1×1 (W [K·C_out, C_in, 1, 1], b)  → [1, K·C_out, T, V]
    /// Reshape [1, K, C_out·T, V]; MatMul with Ã = A ⊙ M [K, V, V]  → [1, K, C_out·T, V]
    /// ReduceSum over K (keepdims 0); Reshape [1, C_out, T, V]
    /// ```
    ///
    /// Initializers keep the state dictionary's names and shapes: `path.weight` `[K·C_out, C_in]`
    /// (reshaped in the graph to `[K·C_out, C_in, 1, 1]`), `path.bias`, `path.edgeImportance`
    /// `M` (multiplied in the graph), plus `path.adjacency` `A`: the graph's constant, or the
    /// learned ``SpatialGraphConvolution/learnedAdjacency`` under its state-dictionary name.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let (partitions, joints) = (self.graph.partitionCount, self.graph.jointCount)
        let weight = try graph.addReshaped(
            path + "." + self.weight.name, tensor: self.weight.value, to: [partitions * outChannels, inChannels, 1, 1])
        let convolution = graph.addNode(
            "Conv", inputs: [input, weight, try graph.addInitializer(path + "." + bias.name, tensor: bias.value)],
            output: path + ".convolution", attributes: [.init("kernel_shape", .ints([1, 1]))])
        var adjacency = try graph.addInitializer(path + ".adjacency", tensor: baseAdjacency)
        if let edgeImportance {
            let importance = try graph.addInitializer(path + "." + edgeImportance.name, tensor: edgeImportance.value)
            adjacency = graph.addNode("Mul", inputs: [adjacency, importance], output: path + ".effectiveAdjacency")
        }
        let split = graph.addNode(
            "Reshape", inputs: [convolution, try graph.addInitializer(path + ".partitionShape", int64s: [1, Int64(partitions), -1, Int64(joints)])],
            output: path + ".partitions")
        let aggregated = graph.addNode(
            "MatMul", inputs: [split, adjacency], output: path + ".aggregated")
        let summed = graph.addNode(
            "ReduceSum", inputs: [aggregated, try graph.addInitializer(path + ".partitionAxis", int64s: [1])],
            output: path + ".summed", attributes: [.init("keepdims", .int(0))])
        return graph.addNode(
            "Reshape", inputs: [summed, try graph.addInitializer(path + ".outputShape", int64s: [1, Int64(outChannels), -1, Int64(joints)])],
            output: path)
    }
}
