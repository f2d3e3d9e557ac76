/// Named layers applied one after another (PyTorch's `nn.Sequential` with named children).
///
/// The names become path components of the state dictionary, e.g. a `Sequential` called
/// `"blocks"` whose child `"0"` has a child `"convolution"` gives `"blocks.0.convolution.weight"`.
public final class Sequential: Layer {
    /// The layers with their names, in execution order.
    public let layers: [(name: String, layer: any Layer)]

    /// Creates a chain of named layers.
    ///
    /// - Parameter layers: `(name, layer)` pairs in execution order; names must be unique and
    ///   contain no `"."`.
    public init(_ layers: [(name: String, layer: any Layer)]) {
        let names = layers.map(\.name)
        precondition(Set(names).count == names.count, "Sequential: duplicate layer names \(names)")
        precondition(names.allSatisfy { !$0.isEmpty && !$0.contains(".") },
                     "Sequential: layer names must be non-empty and contain no '.', got \(names)")
        self.layers = layers
    }

    /// Creates a chain whose layers are named by their positions, `"0"`, `"1"`, ….
    public convenience init(_ layers: [any Layer]) {
        self.init(layers.enumerated().map { (name: String($0.offset), layer: $0.element) })
    }

    public var sublayers: [(name: String, layer: any Layer)] { layers }

    /// Applies each layer's forward pass in order.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        layers.reduce(x) { $1.layer.forward($0, training: training) }
    }

    /// Applies each layer's inference path in order.
    public func infer(_ x: Tensor) -> Tensor {
        layers.reduce(x) { $1.layer.infer($0) }
    }

    /// Applies each layer's backward pass in reverse order.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        layers.reversed().reduce(gradOutput) { $1.layer.backward($0) }
    }
}
