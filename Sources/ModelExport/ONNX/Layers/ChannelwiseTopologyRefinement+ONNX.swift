import NeuralNetwork

extension ChannelwiseTopologyRefinement {
    /// Appends CTR-GCN's refinement of one subset on `[1, C_in, T, V]` (ONNX `docs/Operators.md`,
    /// operator set 17):
    ///
    /// ```
    /// ReduceMean over T (keepdims 1)                   → [1, C_in, 1, V]
    /// Conv 1×1 conv1, conv2; Reshape [1, R, V, 1] and [1, R, 1, V]; Sub; Tanh → D [1, R, V, V]
    /// Conv 1×1 conv4; Mul α; Add A_k                   → M [1, C_out, V, V]
    /// Conv 1×1 conv3 of the input; MatMul(X₃, M)       → [1, C_out, T, V]
    /// ```
    ///
    /// - Parameters:
    ///   - input: The value `[1, C_in, T, V]`.
    ///   - path: The layer's state-dictionary path, e.g. `blocks.0.gcn.convs.1`.
    ///   - subsetAdjacency: The value of `A_k` `[V, V]`.
    ///   - alpha: The value of `α` `[1]`.
    ///   - graph: The graph to append to.
    /// - Returns: The output value.
    public func appendONNXNodes(
        input: String, path: String, subsetAdjacency: String, alpha: String, to graph: inout ONNXGraphBuilder
    ) throws -> String {
        let joints = Int64(adjacency.value.shape[2])
        let relations = Int64(relationChannels)
        let mean = graph.addNode(
            "ReduceMean", inputs: [input], output: path + ".mean",
            attributes: [.init("axes", .ints([2])), .init("keepdims", .int(1))])
        let first = try graph.appendFrameLayers([("conv1", conv1)], input: mean, path: path)
        let second = try graph.appendFrameLayers([("conv2", conv2)], input: mean, path: path)
        let rows = graph.addNode(
            "Reshape", inputs: [first, try graph.addInitializer(path + ".rowShape", int64s: [1, relations, joints, 1])],
            output: path + ".rows")
        let columns = graph.addNode(
            "Reshape", inputs: [second, try graph.addInitializer(path + ".columnShape", int64s: [1, relations, 1, joints])],
            output: path + ".columns")
        let difference = graph.addNode("Sub", inputs: [rows, columns], output: path + ".difference")
        let relation = graph.addNode("Tanh", inputs: [difference], output: path + ".relation")
        let refinement = try graph.appendFrameLayers([("conv4", conv4)], input: relation, path: path)
        let scaled = graph.addNode("Mul", inputs: [refinement, alpha], output: path + ".scaled")
        let topology = graph.addNode("Add", inputs: [scaled, subsetAdjacency], output: path + ".topology")
        let projected = try graph.appendFrameLayers([("conv3", conv3)], input: input, path: path)
        return graph.addNode("MatMul", inputs: [projected, topology], output: path)
    }
}
