import NeuralNetwork

extension Sequential: CoreMLLayerExportable {
    /// Appends each named layer in execution order, under `path.<name>`.
    ///
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` naming the first layer
    ///   without a translation.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        try network.appendLayers(layers, input: input, path: path)
    }
}

extension Residual: CoreMLLayerExportable {
    /// Appends the body under `path.<body name>`, the shortcut under `path.<shortcut name>` (none
    /// for the identity) and one `addBroadcastable` of the two.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        let main = try network.appendLayers([body], input: input, path: path)
        let skip = try shortcut.map { try network.appendLayers([$0], input: input, path: path) } ?? input
        return network.addLayer(path.isEmpty ? "residual" : path, inputs: [main, skip], .addBroadcastable)
    }
}

extension Branches: CoreMLLayerExportable {
    /// Appends every branch under `path.<branch name>`, each reading `input`, and one `concatND`
    /// along the channel axis 1 of their outputs.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        var outputs: [String] = []
        for branch in branches {
            outputs.append(try network.appendLayers([branch], input: input, path: path))
        }
        return network.addLayer(path.isEmpty ? "branches" : path, inputs: outputs, .concatND(axis: 1))
    }
}
