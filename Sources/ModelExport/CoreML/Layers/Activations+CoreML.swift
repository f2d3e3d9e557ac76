import NeuralNetwork

extension ReLU: CoreMLLayerExportable {
    /// Appends one `activation` layer with `ReLU` (`NeuralNetwork.proto`, `ActivationReLU`): `max(x, 0)`.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        network.addLayer(path, inputs: [input], .relu)
    }
}

extension Dropout: CoreMLLayerExportable {
    /// Adds nothing: in evaluation mode dropout is the identity.
    public func appendCoreMLLayers(input: String, path: String, to network: inout CoreMLNetworkBuilder) throws -> String {
        input
    }
}
