import Foundation

/// Classifiers that read the same windows, fused by the weighted mean of their class
/// probabilities: PYSKL's multi-stream ensembles (Duan et al., "PYSKL: Towards Good Practices for
/// Skeleton Action Recognition", ACM MM 2022; the two-stream fusion of Shi et al., 2s-AGCN,
/// CVPR 2019), as one ``Classifier``.
///
/// Input: what every member takes, `[N, C·V, T]` for ActionLab's families. Output: the log of the
/// fused probabilities, `[N, K]`,
///
/// ```
/// y = log q,   q = Σᵢ wᵢ · softmax(zᵢ),   wᵢ = weightᵢ / Σⱼ weightⱼ,   zᵢ = memberᵢ(x)
/// ```
///
/// so `softmax(y) = q`: the fused probabilities come out of the usual softmax, and an ensemble
/// goes wherever a classifier does (``softmax(_:)`` on its logits, the predictor's windows). The
/// backward pass is the exact gradient, `∂y/∂zᵢ = wᵢ · pᵢ ⊙ (g/q − ⟨g/q, pᵢ⟩)` per row with
/// `pᵢ = softmax(zᵢ)`, passed to each member, whose input gradients are summed. The state
/// dictionary is the members' under their names (`joint.blocks.0.…`), the ONNX export's scopes
/// with `.` for `/`.
public final class LateFusionEnsemble: Classifier {
    /// The members with their names, in fusion order.
    public let members: [(name: String, classifier: any Classifier)]
    /// The normalized weights `wᵢ`, summing to 1, in member order.
    public let weights: [Double]
    public let classCount: Int
    public var inputShape: [Int?] { members[0].classifier.inputShape }
    public var sublayers: [(name: String, layer: any Layer)] { members.map { ($0.name, $0.classifier as any Layer) } }

    /// The members' probabilities and the fused ones of the last forward pass, for backward.
    private var memberProbabilities: [Tensor] = []
    private var fused: Tensor?

    /// Why members cannot be fused.
    public struct InvalidMembers: Error, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// Fuses `members` with the given weights.
    ///
    /// - Parameters:
    ///   - members: At least one named classifier; names distinct, non-empty and without `.`; the
    ///     same class count and input shape for all.
    ///   - weights: One finite, non-negative weight per member, summing to more than 0; they are
    ///     divided by their sum.
    /// - Throws: ``InvalidMembers`` naming the problem.
    public init(members: [(name: String, classifier: any Classifier)], weights: [Double]) throws {
        guard let first = members.first else { throw InvalidMembers(description: "an ensemble needs at least one member") }
        let names = members.map(\.name)
        guard Set(names).count == names.count, names.allSatisfy({ !$0.isEmpty && !$0.contains(".") }) else {
            throw InvalidMembers(description: "member names must be distinct, non-empty and without '.': \(names)")
        }
        for member in members where member.classifier.classCount != first.classifier.classCount
            || member.classifier.inputShape != first.classifier.inputShape {
            throw InvalidMembers(
                description: "member '\(member.name)' has \(member.classifier.classCount) classes and input \(member.classifier.inputShape), "
                    + "'\(first.name)' \(first.classifier.classCount) and \(first.classifier.inputShape)")
        }
        let total = weights.reduce(0, +)
        guard weights.count == members.count, weights.allSatisfy({ $0.isFinite && $0 >= 0 }), total > 0, total.isFinite else {
            throw InvalidMembers(description: "need one finite, non-negative weight per member, summing to more than 0: \(weights)")
        }
        self.members = members
        self.weights = weights.map { $0 / total }
        classCount = first.classifier.classCount
    }

    /// The log of the fused probabilities.
    ///
    /// - Parameters:
    ///   - x: The members' input.
    ///   - training: Passed to every member.
    /// - Returns: `log Σᵢ wᵢ · softmax(memberᵢ(x))`, `[N, K]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        memberProbabilities = members.map { softmax($0.classifier.forward(x, training: training)) }
        return fusedLogits()
    }

    /// `log Σᵢ wᵢ · softmax(memberᵢ(x))` with every member's inference path (``Layer/infer(_:)``),
    /// as the members' trials evaluated their windows; ``backward(_:)`` must not follow.
    ///
    /// - Parameter x: Windows `[N, ...]` in the members' input layout.
    /// - Returns: The fused logits `[N, K]`, `forward(x, training: false)` up to rounding.
    public func infer(_ x: Tensor) -> Tensor {
        memberProbabilities = members.map { softmax($0.classifier.infer(x)) }
        return fusedLogits()
    }

    /// `log Σᵢ wᵢ · pᵢ` of the members' probabilities of the last forward or inference call.
    private func fusedLogits() -> Tensor {
        var sum = [Float](repeating: 0, count: memberProbabilities[0].count)
        for (probabilities, weight) in zip(memberProbabilities, weights) {
            let w = Float(weight)
            probabilities.values.withUnsafeBufferPointer { p in
                for index in sum.indices { sum[index] += w * p[index] }
            }
        }
        let q = Tensor(shape: memberProbabilities[0].shape, values: sum)
        fused = q
        return q.map { Foundation.log(max($0, .leastNormalMagnitude)) }
    }

    /// Passes `∂loss/∂y` `[N, K]` back through every member and sums their input gradients.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        guard let fused, fused.shape == gradOutput.shape else {
            preconditionFailure("LateFusionEnsemble.backward needs the forward pass of a batch of shape \(gradOutput.shape)")
        }
        let (rows, classes) = (gradOutput.shape[0], gradOutput.shape[1])
        let g = gradOutput.values, q = fused.values
        var inputGradient: Tensor?
        for ((member, probabilities), weight) in zip(zip(members, memberProbabilities), weights) {
            let p = probabilities.values
            var gradient = [Float](repeating: 0, count: rows * classes)
            for row in 0..<rows {
                let base = row * classes
                var inner: Double = 0
                for k in 0..<classes { inner += Double(g[base + k] / max(q[base + k], .leastNormalMagnitude)) * Double(p[base + k]) }
                for k in 0..<classes {
                    let ratio = Double(g[base + k] / max(q[base + k], .leastNormalMagnitude))
                    gradient[base + k] = Float(weight * Double(p[base + k]) * (ratio - inner))
                }
            }
            let memberGradient = member.classifier.backward(Tensor(shape: gradOutput.shape, values: gradient))
            if let sum = inputGradient {
                inputGradient = Tensor(shape: sum.shape, values: zip(sum.values, memberGradient.values).map(+))
            } else {
                inputGradient = memberGradient
            }
        }
        return inputGradient ?? Tensor(zeros: [0])
    }
}
