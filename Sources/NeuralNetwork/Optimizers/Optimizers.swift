import Foundation

/// A first-order optimizer: per-parameter state plus one update step.
///
/// The optimizer keeps one set of state tensors per parameter, matched to parameters by their
/// position in the array passed to ``step(parameters:)``; pass the same parameters in the same
/// order every time (for example `model.parameters`).
public protocol Optimizer: AnyObject {
    /// The learning rate of the next ``step(parameters:)``; a scheduler may change it between steps.
    var learningRate: Float { get set }

    /// The number of steps taken so far.
    var stepCount: Int { get }

    /// Updates every parameter's value from its gradient and the optimizer's state.
    ///
    /// - Parameter parameters: The parameters, always in the same order; gradients are read,
    ///   not cleared (call ``zeroGradients(_:)`` before the next backward pass).
    func step(parameters: [Parameter])

    /// The optimizer's state as named tensors: `"step"` (shape `[1]`) and, per parameter
    /// index `i`, tensors such as `"i.firstMoment"` with the parameter's shape.
    func stateDictionary() -> [(name: String, tensor: Tensor)]

    /// Restores state saved by ``stateDictionary()``.
    ///
    /// - Throws: ``StateDictionaryError`` naming a missing, unexpected, duplicated or mis-shaped tensor.
    func load(stateDictionary: [(name: String, tensor: Tensor)]) throws
}

/// Stochastic gradient descent with momentum and Nesterov momentum, with the semantics of
/// PyTorch's `torch.optim.SGD` (Sutskever et al., ICML 2013, in PyTorch's formulation):
///
/// ```
/// g ← ∇ + weightDecay · θ
/// b ← g                                   (first step)
/// b ← momentum · b + (1 − dampening) · g  (later steps)
/// g ← g + momentum · b   if nesterov, else g ← b      (only when momentum ≠ 0)
/// θ ← θ − learningRate · g
/// ```
public final class SGD: Optimizer {
    public var learningRate: Float
    /// The momentum factor `μ` (0 for plain SGD).
    public let momentum: Float
    /// The dampening of new gradients in the momentum buffer.
    public let dampening: Float
    /// The L2 penalty coefficient, added to the gradient.
    public let weightDecay: Float
    /// Whether to use Nesterov momentum.
    public let nesterov: Bool

    private var state = OptimizerState(slotNames: ["momentumBuffer"])

    /// Creates the optimizer.
    ///
    /// - Parameters:
    ///   - learningRate: The step size.
    ///   - momentum: The momentum factor (default 0).
    ///   - dampening: The dampening for momentum (default 0).
    ///   - weightDecay: The L2 penalty (default 0).
    ///   - nesterov: Whether to use Nesterov momentum; needs `momentum > 0` and `dampening == 0`.
    public init(learningRate: Float, momentum: Float = 0, dampening: Float = 0,
                weightDecay: Float = 0, nesterov: Bool = false) {
        precondition(!nesterov || (momentum > 0 && dampening == 0),
                     "Nesterov momentum requires a momentum and zero dampening (as in PyTorch)")
        self.learningRate = learningRate
        self.momentum = momentum
        self.dampening = dampening
        self.weightDecay = weightDecay
        self.nesterov = nesterov
    }

    public var stepCount: Int { state.stepCount }

    public func step(parameters: [Parameter]) {
        let isFirstStep = state.stepCount == 0
        state.prepare(for: parameters)
        let (rate, mu, decay, dampening, nesterov) = (learningRate, momentum, weightDecay, self.dampening, self.nesterov)
        for (index, parameter) in parameters.enumerated() {
            parameter.gradient.withUnsafeBufferPointer { gradient in
                state.slots[index][0].withUnsafeMutableBufferPointer { buffer in
                    parameter.value.withUnsafeMutableBufferPointer { theta in
                        for i in 0..<theta.count {
                            var g = gradient[i] + decay * theta[i]
                            if mu != 0 {
                                buffer[i] = isFirstStep ? g : mu * buffer[i] + (1 - dampening) * g
                                g = nesterov ? g + mu * buffer[i] : buffer[i]
                            }
                            theta[i] -= rate * g
                        }
                    }
                }
            }
        }
    }

    public func stateDictionary() -> [(name: String, tensor: Tensor)] { state.stateDictionary() }

    public func load(stateDictionary: [(name: String, tensor: Tensor)]) throws {
        try state.load(stateDictionary)
    }
}

/// Adam (Kingma & Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015) with the
/// semantics of PyTorch's `torch.optim.Adam`, including its L2 `weight_decay` (added to the
/// gradient, not decoupled; see ``AdamW`` for decoupled decay):
///
/// ```
/// g ← ∇ + weightDecay · θ
/// m ← β₁ m + (1 − β₁) g,   v ← β₂ v + (1 − β₂) g²
/// θ ← θ − (learningRate / (1 − β₁ᵗ)) · m / (√v / √(1 − β₂ᵗ) + ε)
/// ```
public final class Adam: Optimizer {
    public var learningRate: Float
    /// The decay rates `(β₁, β₂)` of the first- and second-moment estimates.
    public let betas: (Float, Float)
    /// Added to the denominator for numerical stability, `ε`.
    public let epsilon: Float
    /// The L2 penalty coefficient, added to the gradient.
    public let weightDecay: Float

    private var state = OptimizerState(slotNames: AdamUpdate.slotNames)

    /// Creates the optimizer.
    ///
    /// - Parameters:
    ///   - learningRate: The step size (PyTorch's default is 1e-3).
    ///   - betas: `(β₁, β₂)`, default `(0.9, 0.999)`.
    ///   - epsilon: `ε`, default 1e-8.
    ///   - weightDecay: The L2 penalty, default 0.
    public init(learningRate: Float = 1e-3, betas: (Float, Float) = (0.9, 0.999),
                epsilon: Float = 1e-8, weightDecay: Float = 0) {
        self.learningRate = learningRate
        self.betas = betas
        self.epsilon = epsilon
        self.weightDecay = weightDecay
    }

    public var stepCount: Int { state.stepCount }

    public func step(parameters: [Parameter]) {
        AdamUpdate(learningRate: learningRate, betas: betas, epsilon: epsilon,
                   l2Penalty: weightDecay, decoupledDecay: 0)
            .apply(to: parameters, state: &state)
    }

    public func stateDictionary() -> [(name: String, tensor: Tensor)] { state.stateDictionary() }

    public func load(stateDictionary: [(name: String, tensor: Tensor)]) throws {
        try state.load(stateDictionary)
    }
}

/// AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, "Decoupled Weight Decay
/// Regularization", ICLR 2019), with the semantics of PyTorch's `torch.optim.AdamW`:
///
/// ```
/// θ ← θ · (1 − learningRate · weightDecay)
/// then the Adam update of ``Adam`` without the L2 term.
/// ```
public final class AdamW: Optimizer {
    public var learningRate: Float
    /// The decay rates `(β₁, β₂)` of the first- and second-moment estimates.
    public let betas: (Float, Float)
    /// Added to the denominator for numerical stability, `ε`.
    public let epsilon: Float
    /// The decoupled weight decay coefficient.
    public let weightDecay: Float

    private var state = OptimizerState(slotNames: AdamUpdate.slotNames)

    /// Creates the optimizer.
    ///
    /// - Parameters:
    ///   - learningRate: The step size (PyTorch's default is 1e-3).
    ///   - betas: `(β₁, β₂)`, default `(0.9, 0.999)`.
    ///   - epsilon: `ε`, default 1e-8.
    ///   - weightDecay: The decoupled decay, default 0.01 (PyTorch's default).
    public init(learningRate: Float = 1e-3, betas: (Float, Float) = (0.9, 0.999),
                epsilon: Float = 1e-8, weightDecay: Float = 1e-2) {
        self.learningRate = learningRate
        self.betas = betas
        self.epsilon = epsilon
        self.weightDecay = weightDecay
    }

    public var stepCount: Int { state.stepCount }

    public func step(parameters: [Parameter]) {
        AdamUpdate(learningRate: learningRate, betas: betas, epsilon: epsilon,
                   l2Penalty: 0, decoupledDecay: weightDecay)
            .apply(to: parameters, state: &state)
    }

    public func stateDictionary() -> [(name: String, tensor: Tensor)] { state.stateDictionary() }

    public func load(stateDictionary: [(name: String, tensor: Tensor)]) throws {
        try state.load(stateDictionary)
    }
}

/// One Adam or AdamW step, following PyTorch's single-tensor implementation (`torch/optim/adam.py`,
/// `_single_tensor_adam`): bias corrections in `Double`, element updates in `Float`.
private struct AdamUpdate {
    static let slotNames = ["firstMoment", "secondMoment"]

    let learningRate: Float
    let betas: (Float, Float)
    let epsilon: Float
    let l2Penalty: Float
    let decoupledDecay: Float

    func apply(to parameters: [Parameter], state: inout OptimizerState) {
        state.prepare(for: parameters)
        let t = Double(state.stepCount)
        let stepSize = Float(Double(learningRate) / (1 - pow(Double(betas.0), t)))
        let correction2 = Float((1 - pow(Double(betas.1), t)).squareRoot())
        let (beta1, beta2, eps, l2) = (betas.0, betas.1, epsilon, l2Penalty)
        let shrink = 1 - learningRate * decoupledDecay
        for (index, parameter) in parameters.enumerated() {
            parameter.gradient.withUnsafeBufferPointer { gradient in
                parameter.value.withUnsafeMutableBufferPointer { theta in
                    // Two slots of one array: address them through its buffer, so that the
                    // two nested mutable accesses do not overlap on the array itself.
                    state.slots[index].withUnsafeMutableBufferPointer { moments in
                        moments[0].withUnsafeMutableBufferPointer { m in
                            moments[1].withUnsafeMutableBufferPointer { v in
                                for i in 0..<theta.count {
                                    if shrink != 1 { theta[i] *= shrink }
                                    let g = gradient[i] + l2 * theta[i]
                                    m[i] += (1 - beta1) * (g - m[i])
                                    v[i] = beta2 * v[i] + (1 - beta2) * g * g
                                    theta[i] -= stepSize * m[i] / (v[i].squareRoot() / correction2 + eps)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Per-parameter state tensors ("slots") of an optimizer, and their state dictionary.
private struct OptimizerState {
    let slotNames: [String]
    private(set) var stepCount = 0
    /// `slots[parameterIndex][slotIndex]`, each with the parameter's shape.
    var slots: [[Tensor]] = []

    init(slotNames: [String]) {
        self.slotNames = slotNames
    }

    /// Creates zero slots on the first step, checks them afterwards, and counts the step.
    mutating func prepare(for parameters: [Parameter]) {
        if slots.isEmpty && stepCount == 0 {
            slots = parameters.map { parameter in
                slotNames.map { _ in Tensor(zeros: parameter.value.shape) }
            }
        }
        precondition(slots.count == parameters.count,
                     "optimizer state is for \(slots.count) parameters, step got \(parameters.count)")
        for (slot, parameter) in zip(slots, parameters) {
            precondition(slot.allSatisfy { $0.shape == parameter.value.shape },
                         "optimizer state does not match the shape of parameter '\(parameter.name)'")
        }
        stepCount += 1
    }

    func stateDictionary() -> [(name: String, tensor: Tensor)] {
        var result: [(name: String, tensor: Tensor)] = [("step", Tensor(shape: [1], values: [Float(stepCount)]))]
        for (index, tensors) in slots.enumerated() {
            for (name, tensor) in zip(slotNames, tensors) {
                result.append(("\(index).\(name)", tensor))
            }
        }
        return result
    }

    mutating func load(_ stateDictionary: [(name: String, tensor: Tensor)]) throws {
        var incoming = try StateDictionaryError.indexByName(stateDictionary)
        guard let step = incoming.removeValue(forKey: "step") else {
            throw StateDictionaryError.missingTensor(name: "step")
        }
        guard step.shape == [1], let count = Int(exactly: step.values[0]), count >= 0 else {
            throw StateDictionaryError.shapeMismatch(name: "step", expected: [1], actual: step.shape)
        }
        // Keys are "<parameter index>.<slot name>"; the highest index fixes the parameter count.
        var parameterCount = 0
        for key in incoming.keys.sorted() {
            let parts = key.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[0]), index >= 0,
                  slotNames.contains(String(parts[1])) else {
                throw StateDictionaryError.unexpectedTensor(name: key)
            }
            parameterCount = max(parameterCount, index + 1)
        }
        var loaded: [[Tensor]] = []
        for index in 0..<parameterCount {
            var tensors: [Tensor] = []
            for name in slotNames {
                let key = "\(index).\(name)"
                guard let tensor = incoming.removeValue(forKey: key) else {
                    throw StateDictionaryError.missingTensor(name: key)
                }
                if let first = tensors.first, first.shape != tensor.shape {
                    throw StateDictionaryError.shapeMismatch(name: key, expected: first.shape, actual: tensor.shape)
                }
                tensors.append(tensor)
            }
            loaded.append(tensors)
        }
        if count > 0 && loaded.isEmpty && !slotNames.isEmpty {
            throw StateDictionaryError.missingTensor(name: "0.\(slotNames[0])")
        }
        stepCount = count
        slots = loaded
    }
}
