/// Layers named `0`, `1`, … that only hold tensors for the state dictionary (PyTorch's
/// `nn.ModuleList`); its owner runs them, so running the list itself is a programming error.
final class LayerList: Layer {
    let layers: [any Layer]

    init(_ layers: [any Layer]) {
        self.layers = layers
    }

    var sublayers: [(name: String, layer: any Layer)] {
        layers.enumerated().map { (String($0.offset), $0.element) }
    }

    func forward(_ x: Tensor, training: Bool) -> Tensor {
        preconditionFailure("LayerList holds layers its owner runs; it has no forward pass of its own")
    }

    func backward(_ gradOutput: Tensor) -> Tensor {
        preconditionFailure("LayerList holds layers its owner runs; it has no backward pass of its own")
    }
}
