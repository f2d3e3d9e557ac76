import NeuralNetwork

/// Collects the nodes and initializers of an ONNX graph while a model describes itself.
///
/// Value names share one namespace (ONNX IR: "names of values ... MUST be unique within the
/// graph"): initializers keep the exact names they are given — models use their state-dictionary
/// names, so `blocks.0.convolution.weight` is the same tensor in `model.onnx`,
/// `weights.safetensors` and `weights.h5` — while node outputs get a numeric suffix if their
/// preferred name is taken.
public struct ONNXGraphBuilder: Sendable {
    /// The nodes added so far, in topological order (each node only uses earlier values).
    public private(set) var nodes: [ONNX.NodeProto] = []
    /// The constant tensors added so far.
    public private(set) var initializers: [ONNX.TensorProto] = []
    private var usedNames: Set<String>

    /// Creates an empty graph whose inputs already own their names.
    ///
    /// - Parameter inputNames: The graph input names, e.g. `["poses"]`.
    public init(inputNames: [String]) {
        usedNames = Set(inputNames)
    }

    /// Adds a `FLOAT` initializer.
    ///
    /// - Parameters:
    ///   - name: The value name, used as given.
    ///   - tensor: The constant's shape and values.
    /// - Returns: `name`.
    /// - Throws: ``ModelExportError/duplicateName(_:_:)`` if the name is taken.
    @discardableResult
    public mutating func addInitializer(_ name: String, tensor: Tensor) throws -> String {
        try reserve(name)
        initializers.append(ONNX.TensorProto(name: name, tensor: tensor))
        return name
    }

    /// Adds a one-dimensional `INT64` initializer, such as a `Reshape` target shape.
    ///
    /// - Returns: `name`.
    /// - Throws: ``ModelExportError/duplicateName(_:_:)`` if the name is taken.
    @discardableResult
    public mutating func addInitializer(_ name: String, int64s values: [Int64]) throws -> String {
        try reserve(name)
        initializers.append(ONNX.TensorProto(name: name, int64s: values))
        return name
    }

    /// Adds a zero-dimensional `INT64` initializer, such as the axis input of `CumSum`.
    ///
    /// - Returns: `name`.
    /// - Throws: ``ModelExportError/duplicateName(_:_:)`` if the name is taken.
    @discardableResult
    public mutating func addInitializer(_ name: String, int64Scalar value: Int64) throws -> String {
        try reserve(name)
        initializers.append(ONNX.TensorProto(name: name, int64Scalar: value))
        return name
    }

    /// Adds a node with one output.
    ///
    /// - Parameters:
    ///   - opType: The default-domain operator (ONNX `docs/Operators.md`), e.g. `"Conv"`.
    ///   - inputs: The input value names in the operator's input order.
    ///   - output: The preferred output name; made unique with a suffix when taken.
    ///   - attributes: The operator's attributes.
    /// - Returns: The output's actual name.
    public mutating func addNode(
        _ opType: String, inputs: [String], output: String, attributes: [ONNX.AttributeProto] = []
    ) -> String {
        var name = output
        var suffix = 2
        while usedNames.contains(name) {
            name = "\(output)_\(suffix)"
            suffix += 1
        }
        usedNames.insert(name)
        nodes.append(ONNX.NodeProto(opType: opType, inputs: inputs, outputs: [name], name: name, attributes: attributes))
        return name
    }

    /// Appends named layers one after another, as ``Sequential`` runs them.
    ///
    /// - Parameters:
    ///   - layers: `(name, layer)` pairs in execution order.
    ///   - input: The value the first layer reads.
    ///   - path: The state-dictionary path of the layers' parent (`""` at the model's root).
    /// - Returns: The last layer's output value.
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` for a layer that does not
    ///   conform to ``ONNXLayerExportable``, and whatever the layers throw.
    public mutating func appendLayers(
        _ layers: [(name: String, layer: any Layer)], input: String, path: String
    ) throws -> String {
        var value = input
        for (name, layer) in layers {
            let layerPath = path.isEmpty ? name : path + "." + name
            guard let exportable = layer as? any ONNXLayerExportable else {
                throw ModelExportError.unsupportedLayer(.onnx, path: layerPath, type: String(describing: type(of: layer)))
            }
            value = try exportable.appendONNXNodes(input: value, path: layerPath, to: &self)
        }
        return value
    }

    /// Appends a subgraph whose value names are all prefixed with `scope/`, so several models
    /// that use the same state-dictionary names can share one graph (a stream ensemble).
    ///
    /// `build` describes the subgraph in a builder of its own, whose inputs are `shared`; every
    /// node output, node name and initializer it adds is then renamed `scope/name`, while the
    /// shared values (the graph input `poses`) keep their names.
    ///
    /// - Parameters:
    ///   - scope: The prefix, e.g. `"joint"`; must not contain `/`.
    ///   - shared: The values of this graph that the subgraph reads under their own names.
    ///   - build: Adds the subgraph's nodes and returns the value it computes.
    /// - Returns: The renamed value `build` returned.
    /// - Throws: ``ModelExportError/duplicateName(_:_:)`` if a renamed value is already taken
    ///   (the same scope twice), and whatever `build` throws.
    public mutating func appendScoped(
        _ scope: String, shared: Set<String>, _ build: (inout ONNXGraphBuilder) throws -> String
    ) throws -> String {
        var inner = ONNXGraphBuilder(inputNames: Array(shared))
        let output = try build(&inner)
        func renamed(_ name: String) -> String { name.isEmpty || shared.contains(name) ? name : scope + "/" + name }
        for var initializer in inner.initializers {
            initializer.name = renamed(initializer.name)
            try reserve(initializer.name)
            initializers.append(initializer)
        }
        for var node in inner.nodes {
            node.inputs = node.inputs.map(renamed)
            node.outputs = node.outputs.map(renamed)
            node.name = renamed(node.name)
            for name in node.outputs { try reserve(name) }
            nodes.append(node)
        }
        return renamed(output)
    }

    private mutating func reserve(_ name: String) throws {
        guard usedNames.insert(name).inserted else { throw ModelExportError.duplicateName(.onnx, name) }
    }
}
