/// A learnable tensor together with the gradient of the loss with respect to it.
///
/// Layers own their parameters; ``Layer/backward(_:)`` *adds* to ``gradient`` so that gradients
/// of several backward passes accumulate, as in PyTorch. Call ``zeroGradients(_:)`` before each
/// batch.
public final class Parameter {
    /// The parameter's name within the layer that owns it, e.g. `"weight"` or `"bias"`.
    public let name: String
    /// The current value.
    public var value: Tensor { didSet { version &+= 1 } }
    /// The accumulated gradient, with the same shape as ``value``.
    public var gradient: Tensor
    /// Counts the changes of ``value`` (assignments and in-place mutations, such as an optimizer
    /// step or a state-dictionary load), so that values derived from it, such as folded inference
    /// weights, know when to be computed again.
    public private(set) var version: UInt64 = 0

    /// Creates a parameter with a zero gradient.
    ///
    /// - Parameters:
    ///   - name: The name within the owning layer.
    ///   - value: The initial value.
    public init(name: String, value: Tensor) {
        self.name = name
        self.value = value
        self.gradient = Tensor(zeros: value.shape)
    }
}

/// A non-learnable state tensor of a layer, such as batch normalization's running mean.
///
/// Buffers are saved in the state dictionary with the parameters but are not updated by
/// optimizers (PyTorch's `register_buffer`).
public final class Buffer {
    /// The buffer's name within the layer that owns it, e.g. `"runningMean"`.
    public let name: String
    /// The current value.
    public var value: Tensor { didSet { version &+= 1 } }
    /// Counts the changes of ``value`` (assignments and in-place mutations, such as batch
    /// normalization's running statistics in training), like ``Parameter/version``.
    public private(set) var version: UInt64 = 0

    /// Creates a buffer.
    ///
    /// - Parameters:
    ///   - name: The name within the owning layer.
    ///   - value: The initial value.
    public init(name: String, value: Tensor) {
        self.name = name
        self.value = value
    }
}

/// A differentiable building block of a network with a hand-written backward pass.
///
/// ``forward(_:training:)`` caches what ``backward(_:)`` needs, so a backward call refers to the
/// most recent forward call. A layer's tensors are its own ``ownParameters`` and ``ownBuffers``
/// followed by those of its ``sublayers``; the extension builds ``parameters``,
/// ``stateDictionary()`` and ``load(stateDictionary:)`` on that tree, naming tensors by dotted
/// paths such as `"blocks.0.convolution.weight"` (PyTorch's `state_dict` order and naming).
public protocol Layer: AnyObject {
    /// Computes the layer's output and caches what the backward pass needs.
    ///
    /// - Parameters:
    ///   - x: The input batch; the expected shape is stated by each layer.
    ///   - training: Whether the layer is in training mode (batch statistics, dropout) or
    ///     evaluation mode.
    /// - Returns: The output batch.
    func forward(_ x: Tensor, training: Bool) -> Tensor

    /// Computes the evaluation-mode output by the layer's inference path, keeping nothing for a
    /// backward pass.
    ///
    /// Equal to `forward(x, training: false)` up to rounding (default: exactly that call). A layer
    /// with a faster evaluation path overrides it, for example folding batch normalization into
    /// the convolution before it (``SpatialTemporalGraphBlock``). Trials' evaluation and
    /// prediction both call it, so that a window gets the same probabilities from either, bit
    /// for bit. Do not call ``backward(_:)`` after it.
    ///
    /// - Parameter x: The input batch; the expected shape is stated by each layer.
    /// - Returns: The output batch, as ``forward(_:training:)`` shapes it.
    func infer(_ x: Tensor) -> Tensor

    /// Propagates a gradient from the output of the most recent forward call to its input.
    ///
    /// Adds the gradients of the loss with respect to the layer's parameters to their
    /// ``Parameter/gradient``.
    ///
    /// - Parameter gradOutput: ∂loss/∂output, with the shape of the last forward's output.
    /// - Returns: ∂loss/∂input, with the shape of the last forward's input.
    func backward(_ gradOutput: Tensor) -> Tensor

    /// Learnable tensors owned by this layer itself, not by its sublayers (default: none).
    var ownParameters: [Parameter] { get }

    /// Non-learnable state tensors owned by this layer itself (default: none).
    var ownBuffers: [Buffer] { get }

    /// The layer's direct children with their names, in a stable order (default: none).
    var sublayers: [(name: String, layer: any Layer)] { get }
}

extension Layer {
    public func infer(_ x: Tensor) -> Tensor { forward(x, training: false) }
    public var ownParameters: [Parameter] { [] }
    public var ownBuffers: [Buffer] { [] }
    public var sublayers: [(name: String, layer: any Layer)] { [] }

    /// All learnable parameters of this layer and its sublayers, in state-dictionary order.
    ///
    /// Builds no names (the trainer asks for them at every step); ``namedParameters`` has them.
    public var parameters: [Parameter] {
        var result: [Parameter] = []
        forEachLayer { result += $0.ownParameters }
        return result
    }

    /// All learnable parameters with their dotted paths, e.g. `("classifier.weight", p)`.
    public var namedParameters: [(name: String, parameter: Parameter)] {
        var result: [(name: String, parameter: Parameter)] = []
        visitLayers(prefix: "") { prefix, layer in
            for parameter in layer.ownParameters {
                result.append((prefix + parameter.name, parameter))
            }
        }
        return result
    }

    /// The total number of learnable scalars.
    public var parameterCount: Int {
        parameters.reduce(0) { $0 + $1.value.count }
    }

    /// Calls `body` for this layer and every descendant, depth first, parents before children.
    ///
    /// - Parameter body: Receives each layer and its path prefix (`""` for `self`,
    ///   `"blocks.0."` for a descendant).
    public func visitLayers(_ body: (_ prefix: String, _ layer: any Layer) -> Void) {
        visitLayers(prefix: "", body)
    }

    private func visitLayers(prefix: String, _ body: (String, any Layer) -> Void) {
        body(prefix, self)
        for (name, child) in sublayers {
            child.visitLayers(prefix: prefix + name + ".", body)
        }
    }

    /// Calls `body` for this layer and every descendant in the order of ``visitLayers(_:)``,
    /// without building their path prefixes.
    private func forEachLayer(_ body: (any Layer) -> Void) {
        body(self)
        for (_, child) in sublayers {
            child.forEachLayer(body)
        }
    }

    /// The state-dictionary name of the first parameter or buffer (in ``stateDictionary()``
    /// order) holding a value that is not finite (NaN or ±infinity), or nil when every value is
    /// finite.
    ///
    /// Scans the values without building names, so that a trainer can afford it after every
    /// optimizer step; only a tensor that fails is named.
    public func firstNonFiniteTensorName() -> String? {
        var failed: ObjectIdentifier?
        forEachLayer { layer in
            guard failed == nil else { return }
            if let parameter = layer.ownParameters.first(where: { !$0.value.isFinite }) {
                failed = ObjectIdentifier(parameter)
            } else if let buffer = layer.ownBuffers.first(where: { !$0.value.isFinite }) {
                failed = ObjectIdentifier(buffer)
            }
        }
        guard let failed else { return nil }
        return stateEntries().first { $0.entry.identifier == failed }?.name
    }

    /// Every parameter and buffer with its dotted path, in a stable order.
    ///
    /// For each layer, depth first: its own parameters, then its own buffers, then its
    /// sublayers' tensors (the order of PyTorch's `Module.state_dict`).
    ///
    /// - Returns: `(name, tensor)` pairs, e.g. `("blocks.0.batchNorm.runningMean", [64])`.
    public func stateDictionary() -> [(name: String, tensor: Tensor)] {
        stateEntries().map { ($0.name, $0.entry.value) }
    }

    /// Replaces every parameter and buffer with the tensor of the same name.
    ///
    /// The dictionary is checked completely before anything is changed, so a failed load leaves
    /// the layer as it was. Gradients are not touched.
    ///
    /// - Parameter stateDictionary: `(name, tensor)` pairs as ``stateDictionary()`` returns them,
    ///   in any order.
    /// - Throws: ``StateDictionaryError`` naming the first missing, unexpected, duplicated or
    ///   mis-shaped tensor.
    public func load(stateDictionary: [(name: String, tensor: Tensor)]) throws {
        let entries = stateEntries()
        let incoming = try StateDictionaryError.indexByName(stateDictionary)
        for (name, entry) in entries {
            guard let tensor = incoming[name] else {
                throw StateDictionaryError.missingTensor(name: name)
            }
            guard tensor.shape == entry.value.shape else {
                throw StateDictionaryError.shapeMismatch(
                    name: name, expected: entry.value.shape, actual: tensor.shape)
            }
        }
        let expectedNames = Set(entries.map(\.name))
        if let extra = stateDictionary.first(where: { !expectedNames.contains($0.name) }) {
            throw StateDictionaryError.unexpectedTensor(name: extra.name)
        }
        for (name, entry) in entries {
            if let tensor = incoming[name] { entry.value = tensor }
        }
    }

    private func stateEntries() -> [(name: String, entry: StateEntry)] {
        var result: [(name: String, entry: StateEntry)] = []
        visitLayers(prefix: "") { prefix, layer in
            for parameter in layer.ownParameters {
                result.append((prefix + parameter.name, .parameter(parameter)))
            }
            for buffer in layer.ownBuffers {
                result.append((prefix + buffer.name, .buffer(buffer)))
            }
        }
        return result
    }
}

/// A parameter or a buffer, seen only as a named tensor to save or restore.
private enum StateEntry {
    case parameter(Parameter)
    case buffer(Buffer)

    /// The identity of the parameter or buffer object.
    var identifier: ObjectIdentifier {
        switch self {
        case .parameter(let parameter): ObjectIdentifier(parameter)
        case .buffer(let buffer): ObjectIdentifier(buffer)
        }
    }

    var value: Tensor {
        get {
            switch self {
            case .parameter(let parameter): parameter.value
            case .buffer(let buffer): buffer.value
            }
        }
        nonmutating set {
            switch self {
            case .parameter(let parameter): parameter.value = newValue
            case .buffer(let buffer): buffer.value = newValue
            }
        }
    }
}

/// Sets the gradient of every parameter to zero (PyTorch's `Optimizer.zero_grad(set_to_none=False)`).
///
/// - Parameter parameters: The parameters whose gradients to clear.
public func zeroGradients(_ parameters: [Parameter]) {
    for parameter in parameters {
        parameter.gradient.fill(with: 0)
    }
}
