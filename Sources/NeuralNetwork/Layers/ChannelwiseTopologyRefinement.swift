import Foundation
import Randomness

/// CTR-GCN's channel-wise topology refinement graph convolution for one subset of the adjacency:
/// a shared topology refined per channel from the input, then used to aggregate the joints.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T, V]`. With `R` relation channels (8 when
/// `C_in ≤ 16`, else `C_in / 8`), the subset's adjacency `A_k` `[V, V]` and the scalar `α`:
///
/// ```
/// conv1, conv2  1×1 (C_in → R) of the temporal mean: m₁, m₂ [N, R, V]
///               (the mean over T commutes with the 1×1 convolution, so it is taken first)
/// relation      D[n, r, u, v] = tanh(m₁[n, r, u] − m₂[n, r, v])          [N, R, V, V]
/// conv4         1×1 (R → C_out) of D: E                                   [N, C_out, V, V]
/// topology      M = α·E + A_k                                             [N, C_out, V, V]
/// conv3         1×1 (C_in → C_out) of x: X₃                               [N, C_out, T, V]
/// output        y[n, c, t, v] = Σ_u M[n, c, u, v] · X₃[n, c, t, u]        (einsum 'ncuv,nctu->nctv')
/// ```
///
/// This is PYSKL's `CTRGC` (`pyskl/models/gcns/utils/gcn.py`; Chen et al., "Channel-wise Topology
/// Refinement Graph Convolution for Skeleton-Based Action Recognition", ICCV 2021, eq. 2–5, the
/// `CTRGC` of `model/ctrgcn.py` in the authors' code). `A` `[K, V, V]` and `α` `[1]` are
/// parameters of the enclosing ``CTRGraphConvolution`` (PYSKL's `unit_ctrgcn.A` and `.alpha`,
/// shared by its `K` subsets); this layer reads subset `k` of them and adds its gradients to
/// theirs. PyTorch mapping: `convs.k.convJ.weight` `[O, I, 1, 1]` → `convs.k.convJ.weight`
/// `[O, I, 1]`, `convs.k.convJ.bias` → `convs.k.convJ.bias` for `J` = 1…4.
public final class ChannelwiseTopologyRefinement: Layer {
    /// Channels of the input, `C_in`.
    public let inChannels: Int
    /// Channels of the output, `C_out`.
    public let outChannels: Int
    /// Channels of the relation, `R`.
    public let relationChannels: Int
    /// The subset `k` of the shared adjacency this layer uses.
    public let subset: Int
    /// `conv1`, `C_in → R`, on the temporal mean.
    public let conv1: TemporalConvolution
    /// `conv2`, `C_in → R`, on the temporal mean.
    public let conv2: TemporalConvolution
    /// `conv3`, `C_in → C_out`, on the input.
    public let conv3: TemporalConvolution
    /// `conv4`, `R → C_out`, on the relation.
    public let conv4: TemporalConvolution
    /// The shared adjacency `A` `[K, V, V]`, owned by the enclosing unit.
    public let adjacency: Parameter
    /// The shared scale `α` `[1]` of the refinement, owned by the enclosing unit.
    public let alpha: Parameter

    private var inputShape: [Int] = [0, 0, 0, 0]
    /// `D`, `[N, R, V, V]`.
    private var relation = Tensor(zeros: [0])
    /// `E`, `[N, C_out, V, V]`.
    private var refinement = Tensor(zeros: [0])
    /// `M`, `[N, C_out, V, V]`.
    private var topology = Tensor(zeros: [0])
    /// `X₃`, `[N, C_out, T, V]`.
    private var projected = Tensor(zeros: [0])

    /// The relation channels `R` of PYSKL's `CTRGC`: 8 when `C_in ≤ 16`, else `C_in / 8`.
    public static func relationChannels(inChannels: Int) -> Int {
        inChannels <= 16 ? 8 : inChannels / 8
    }

    /// Creates the layer with PyTorch's default `Conv2d` initialization drawn from `generator`
    /// for `conv1`, `conv2`, `conv3` and `conv4`, in that order.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input, `C_in`.
    ///   - outChannels: Channels of the output, `C_out`.
    ///   - adjacency: The shared adjacency `[K, V, V]`.
    ///   - alpha: The shared scale `[1]`.
    ///   - subset: The subset `k < K` this layer uses.
    ///   - generator: The source of randomness for the initial weights.
    public init(
        inChannels: Int, outChannels: Int, adjacency: Parameter, alpha: Parameter, subset: Int,
        using generator: inout SeededGenerator
    ) {
        precondition(adjacency.value.rank == 3 && subset >= 0 && subset < adjacency.value.shape[0] && alpha.value.count == 1,
                     "ChannelwiseTopologyRefinement needs subset k of an adjacency [K, V, V] and a scalar alpha")
        self.inChannels = inChannels
        self.outChannels = outChannels
        relationChannels = Self.relationChannels(inChannels: inChannels)
        self.subset = subset
        self.adjacency = adjacency
        self.alpha = alpha
        func pointwise(_ inputs: Int, _ outputs: Int) -> TemporalConvolution {
            TemporalConvolution(inChannels: inputs, outChannels: outputs, kernelSize: 1, padding: .explicit(0), using: &generator)
        }
        conv1 = pointwise(inChannels, relationChannels)
        conv2 = pointwise(inChannels, relationChannels)
        conv3 = pointwise(inChannels, outChannels)
        conv4 = pointwise(relationChannels, outChannels)
    }

    public var sublayers: [(name: String, layer: any Layer)] {
        [("conv1", conv1), ("conv2", conv2), ("conv3", conv3), ("conv4", conv4)]
    }

    private var joints: Int { adjacency.value.shape[2] }

    /// Refines the topology from `x` and aggregates the joints over it.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Passed to the convolutions (which behave the same in both modes).
    /// - Returns: Output `[N, C_out, T, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let joints = joints
        precondition(x.rank == 4 && x.shape[1] == inChannels && x.shape[3] == joints && x.shape[2] > 0,
                     "ChannelwiseTopologyRefinement expects [N, \(inChannels), T, \(joints)], got \(x.shape)")
        let (batch, length) = (x.shape[0], x.shape[2])
        inputShape = x.shape
        // The temporal mean [N, C_in, 1, V].
        var mean = Tensor(zeros: [batch, inChannels, 1, joints])
        let scale = 1 / Float(length)
        for row in 0..<(batch * inChannels) {
            for t in 0..<length {
                for v in 0..<joints { mean.values[row * joints + v] += x.values[(row * length + t) * joints + v] }
            }
            for v in 0..<joints { mean.values[row * joints + v] *= scale }
        }
        let first = conv1.forward(mean, training: training)
        let second = conv2.forward(mean, training: training)
        let relations = relationChannels
        var relation = Tensor(zeros: [batch, relations, joints, joints])
        for row in 0..<(batch * relations) {
            for u in 0..<joints {
                for v in 0..<joints {
                    relation.values[(row * joints + u) * joints + v] =
                        Foundation.tanh(first.values[row * joints + u] - second.values[row * joints + v])
                }
            }
        }
        self.relation = relation
        refinement = conv4.forward(relation, training: training)
        var topology = refinement
        topology.scale(by: alpha.value.values[0])
        let plane = joints * joints
        let adjacencyOffset = subset * plane
        for block in 0..<(batch * outChannels) {
            for index in 0..<plane { topology.values[block * plane + index] += adjacency.value.values[adjacencyOffset + index] }
        }
        self.topology = topology
        projected = conv3.forward(x, training: training)
        var output = Tensor(zeros: [batch, outChannels, length, joints])
        let frame = length * joints
        projected.withUnsafeBufferPointer { x3 in
            topology.withUnsafeBufferPointer { m in
                output.withUnsafeMutableBufferPointer { y in
                    guard let x3 = x3.baseAddress, let m = m.baseAddress, let y = y.baseAddress else { return }
                    for block in 0..<(batch * outChannels) {
                        gemm(.none, x3 + block * frame, .none, m + block * plane, into: y + block * frame,
                             m: length, n: joints, k: joints, beta: 0)
                    }
                }
            }
        }
        return output
    }

    /// Back-propagates through the aggregation, the topology, the relation and the convolutions,
    /// adding `∂A_k` and `∂α` to the shared parameters' gradients.
    ///
    /// With `G = ∂loss/∂y`: `∂M[n, c] = X₃[n, c]ᵀ G[n, c]`, `∂X₃[n, c] = G[n, c] M[n, c]ᵀ`,
    /// `∂A_k = Σ_{n,c} ∂M[n, c]`, `∂α = Σ ∂M ⊙ E`, `∂E = α ∂M`, `∂D` from `conv4`,
    /// `∂P = ∂D ⊙ (1 − D²)`, `∂m₁[n, r, u] = Σ_v ∂P[n, r, u, v]`, `∂m₂[n, r, v] = −Σ_u ∂P[n, r, u, v]`,
    /// and the temporal mean's gradient spread evenly over the `T` frames.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length, joints) = (inputShape[0], inputShape[2], inputShape[3])
        precondition(gradOutput.shape == [batch, outChannels, length, joints],
                     "ChannelwiseTopologyRefinement.backward: gradient shape \(gradOutput.shape)")
        let (plane, frame) = (joints * joints, length * joints)
        var gradTopology = Tensor(zeros: topology.shape)
        var gradProjected = Tensor(zeros: projected.shape)
        projected.withUnsafeBufferPointer { x3 in
            topology.withUnsafeBufferPointer { m in
                gradOutput.withUnsafeBufferPointer { g in
                    gradTopology.withUnsafeMutableBufferPointer { dm in
                        gradProjected.withUnsafeMutableBufferPointer { dx3 in
                            guard let x3 = x3.baseAddress, let m = m.baseAddress, let g = g.baseAddress,
                                  let dm = dm.baseAddress, let dx3 = dx3.baseAddress else { return }
                            for block in 0..<(batch * outChannels) {
                                gemm(.transpose, x3 + block * frame, .none, g + block * frame, into: dm + block * plane,
                                     m: joints, n: joints, k: length, beta: 0)
                                gemm(.none, g + block * frame, .transpose, m + block * plane, into: dx3 + block * frame,
                                     m: length, n: joints, k: joints, beta: 0)
                            }
                        }
                    }
                }
            }
        }
        var gradAlpha: Double = 0
        let adjacencyOffset = subset * plane
        for block in 0..<(batch * outChannels) {
            for index in 0..<plane {
                let value = gradTopology.values[block * plane + index]
                adjacency.gradient.values[adjacencyOffset + index] += value
                gradAlpha += Double(value) * Double(refinement.values[block * plane + index])
            }
        }
        alpha.gradient.values[0] += Float(gradAlpha)
        gradTopology.scale(by: alpha.value.values[0])
        let gradRelation = conv4.backward(gradTopology)
        let relations = relationChannels
        var gradFirst = Tensor(zeros: [batch, relations, 1, joints])
        var gradSecond = Tensor(zeros: [batch, relations, 1, joints])
        for row in 0..<(batch * relations) {
            for u in 0..<joints {
                for v in 0..<joints {
                    let index = (row * joints + u) * joints + v
                    let d = relation.values[index]
                    let gradPre = gradRelation.values[index] * (1 - d * d)
                    gradFirst.values[row * joints + u] += gradPre
                    gradSecond.values[row * joints + v] -= gradPre
                }
            }
        }
        var gradMean = conv1.backward(gradFirst)
        gradMean.add(conv2.backward(gradSecond))
        var gradInput = conv3.backward(gradProjected)
        let scale = 1 / Float(length)
        for row in 0..<(batch * inChannels) {
            for t in 0..<length {
                for v in 0..<joints { gradInput.values[(row * length + t) * joints + v] += gradMean.values[row * joints + v] * scale }
            }
        }
        return gradInput
    }
}
