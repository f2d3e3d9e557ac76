import NeuralNetwork

extension SpatialTemporalGraphBlock: ONNXLayerExportable {
    /// Appends one ST-GCN block on `[1, C_in, T, V]`: the graph convolution, the temporal part
    /// (`BatchNormalization → Relu → Conv k×1 → BatchNormalization`, dropout being the identity),
    /// the residual (`Add` of the input, or of a `Conv 1×1` with the block's stride followed by
    /// `BatchNormalization`), and a final `Relu`.
    public func appendONNXNodes(input: String, path: String, to graph: inout ONNXGraphBuilder) throws -> String {
        let spatial = try graphConvolution.appendONNXNodes(input: input, path: path + ".graphConvolution", to: &graph)
        var output = try graph.appendFrameLayers(temporal.layers, input: spatial, path: path + ".temporal")
        switch residual {
        case .none:
            break
        case .identity:
            output = graph.addNode("Add", inputs: [output, input], output: path + ".sum")
        case .projection:
            guard let projection = residualProjection else {
                throw ModelExportError.unsupportedLayer(.onnx, path: path + ".residual", type: "missing projection")
            }
            let shortcut = try graph.appendFrameLayers([("residual", projection)], input: input, path: path)
            output = graph.addNode("Add", inputs: [output, shortcut], output: path + ".sum")
        }
        return graph.addNode("Relu", inputs: [output], output: path)
    }
}

extension ONNXGraphBuilder {
    /// Appends layers that run on frames of joints, `[N, C, T, V]`: a ``TemporalConvolution``
    /// becomes a 2-D `Conv` with kernel `k×1` (its weight initializer `[out, in, k]` reshaped in
    /// the graph to `[out, in, k, 1]`, strides `[s, 1]`, pads `[p, 0, p, 0]`, dilations `[d, 1]`), the
    /// children of a ``Sequential``, ``Residual`` or ``Branches`` are walked as frame layers too, and
    /// every other layer uses its own translation.
    ///
    /// - Parameters:
    ///   - layers: `(name, layer)` pairs in execution order.
    ///   - input: The value the first layer reads, `[N, C, T, V]`.
    ///   - path: The state-dictionary path of the layers' parent (`""` at the model's root).
    /// - Returns: The last layer's output value.
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` for a layer without a translation.
    public mutating func appendFrameLayers(_ layers: [(name: String, layer: any Layer)], input: String, path: String) throws -> String {
        var value = input
        for (name, layer) in layers {
            let layerPath = path.isEmpty ? name : path + "." + name
            if let convolution = layer as? TemporalConvolution {
                var inputs = [value, try addReshaped(
                    layerPath + "." + convolution.weight.name, tensor: convolution.weight.value,
                    to: [convolution.outChannels, convolution.inChannels, convolution.kernelSize, 1])]
                if let bias = convolution.bias {
                    inputs.append(try addInitializer(layerPath + "." + bias.name, tensor: bias.value))
                }
                let (k, s, p, d) = (Int64(convolution.kernelSize), Int64(convolution.stride), Int64(convolution.padding), Int64(convolution.dilation))
                value = addNode("Conv", inputs: inputs, output: layerPath, attributes: [
                    .init("dilations", .ints([d, 1])), .init("group", .int(1)), .init("kernel_shape", .ints([k, 1])),
                    .init("pads", .ints([p, 0, p, 0])), .init("strides", .ints([s, 1])),
                ])
            } else if let pooling = layer as? TemporalMaxPooling {
                value = pooling.appendONNXNodes(input: value, path: layerPath, rank4: true, to: &self)
            } else if let sequential = layer as? Sequential {
                value = try appendFrameLayers(sequential.layers, input: value, path: layerPath)
            } else if let container = layer as? any ONNXContainerExportable {
                value = try container.appendONNXNodes(input: value, path: layerPath, to: &self) { graph, layers, input, path in
                    try graph.appendFrameLayers(layers, input: input, path: path)
                }
            } else {
                value = try appendLayers([(name, layer)], input: value, path: path)
            }
        }
        return value
    }
}
