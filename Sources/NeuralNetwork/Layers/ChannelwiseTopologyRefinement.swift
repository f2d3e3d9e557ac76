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
    /// Each backward part's share of `∂A_k`, `[V, V]`, grown to the number of parts.
    private var adjacencyShares: [Workspace] = []

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
    /// The element-wise steps and the per-channel products are split by sample between
    /// ``ComputeThreads``; every sample's values are computed the same way at every thread count.
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
        let (inChannels, outChannels, relations) = (inChannels, outChannels, relationChannels)
        let (plane, frame) = (joints * joints, length * joints)
        // The temporal mean [N, C_in, 1, V], frame by frame in order.
        let scale = 1 / Float(length)
        var mean = Tensor(unspecifiedContentsWithShape: [batch, inChannels, 1, joints])
        x.withUnsafeBufferPointer { x in
            mean.withUnsafeMutableBufferPointer { m in
                guard let x = x.baseAddress, let m = m.baseAddress else { return }
                forEachRow(of: batch, rowsPerSample: inChannels) { row in
                    let target = m + row * joints
                    target.update(repeating: 0, count: joints)
                    for t in 0..<length { VectorKernels.add(x + row * frame + t * joints, to: target, count: joints) }
                    VectorKernels.scale(target, by: scale, into: target, count: joints)
                }
            }
        }
        let first = conv1.forward(mean, training: training)
        let second = conv2.forward(mean, training: training)
        var relation = Tensor(unspecifiedContentsWithShape: [batch, relations, joints, joints])
        first.withUnsafeBufferPointer { m1 in
            second.withUnsafeBufferPointer { m2 in
                relation.withUnsafeMutableBufferPointer { d in
                    guard let m1 = m1.baseAddress, let m2 = m2.baseAddress, let d = d.baseAddress else { return }
                    forEachRow(of: batch, rowsPerSample: relations) { row in
                        for u in 0..<joints {
                            let (value, target) = (m1[row * joints + u], d + (row * joints + u) * joints)
                            for v in 0..<joints { target[v] = Foundation.tanh(value - m2[row * joints + v]) }
                        }
                    }
                }
            }
        }
        self.relation = relation
        refinement = conv4.forward(relation, training: training)
        // M = α·E + A_k.
        let alphaValue = alpha.value.values[0]
        var topology = Tensor(unspecifiedContentsWithShape: refinement.shape)
        withBase(refinement, adjacency.value) { e, a in
            topology.withUnsafeMutableBufferPointer { m in
                guard let m = m.baseAddress else { return }
                let adjacency = a + subset * plane
                forEachRow(of: batch, rowsPerSample: outChannels) { block in
                    VectorKernels.scale(e + block * plane, by: alphaValue, into: m + block * plane, count: plane)
                    VectorKernels.add(adjacency, to: m + block * plane, count: plane)
                }
            }
        }
        self.topology = topology
        projected = conv3.forward(x, training: training)
        // y[n, c] ([T, V]) = X₃[n, c] ([T, V]) · M[n, c] ([V, V]).
        var output = Tensor(unspecifiedContentsWithShape: [batch, outChannels, length, joints])
        withBase(projected, topology) { x3, m in
            output.withUnsafeMutableBufferPointer { y in
                guard let y = y.baseAddress else { return }
                forEachRow(of: batch, rowsPerSample: outChannels) { block in
                    gemm(.none, x3 + block * frame, .none, m + block * plane, into: y + block * frame,
                         m: length, n: joints, k: joints, beta: 0)
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
    /// and the temporal mean's gradient spread evenly over the `T` frames. The samples are split
    /// between ``ComputeThreads``; each part sums its own share of `∂A_k` and `∂α`, and the shares
    /// are added in part order.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length, joints) = (inputShape[0], inputShape[2], inputShape[3])
        precondition(gradOutput.shape == [batch, outChannels, length, joints],
                     "ChannelwiseTopologyRefinement.backward: gradient shape \(gradOutput.shape)")
        let (plane, frame) = (joints * joints, length * joints)
        let (inChannels, outChannels, relations) = (inChannels, outChannels, relationChannels)
        let alphaValue = alpha.value.values[0]
        let parts = ComputeThreads.parts(of: batch)
        while adjacencyShares.count < parts.count { adjacencyShares.append(Workspace()) }
        let shares = adjacencyShares
        var alphaShares = [Double](repeating: 0, count: parts.count)
        // ∂M (then scaled by α into ∂E) and ∂X₃, per sample.
        var gradTopology = Tensor(unspecifiedContentsWithShape: topology.shape)
        var gradProjected = Tensor(unspecifiedContentsWithShape: projected.shape)
        withPointers(projected, topology, gradOutput, refinement) { x3, m, g, e in
            gradTopology.withUnsafeMutableBufferPointer { dm in
                gradProjected.withUnsafeMutableBufferPointer { dx3 in
                    alphaShares.withUnsafeMutableBufferPointer { alphaShares in
                        guard let dm = dm.baseAddress, let dx3 = dx3.baseAddress,
                              let alphaShares = alphaShares.baseAddress else { return }
                        ComputeThreads.forEach(parts) { part, samples in
                            let share = shares[part].buffer(count: plane)
                            share.update(repeating: 0)
                            guard let share = share.baseAddress else { return }
                            var alphaShare: Double = 0
                            for block in (samples.lowerBound * outChannels)..<(samples.upperBound * outChannels) {
                                let gradBlock = dm + block * plane
                                gemm(.transpose, x3 + block * frame, .none, g + block * frame, into: gradBlock,
                                     m: joints, n: joints, k: length, beta: 0)
                                gemm(.none, g + block * frame, .transpose, m + block * plane, into: dx3 + block * frame,
                                     m: length, n: joints, k: joints, beta: 0)
                                VectorKernels.add(gradBlock, to: share, count: plane)
                                alphaShare += VectorKernels.dotInDouble(gradBlock, e + block * plane, count: plane)
                                VectorKernels.scale(gradBlock, by: alphaValue, into: gradBlock, count: plane)
                            }
                            alphaShares[part] = alphaShare
                        }
                    }
                }
            }
        }
        adjacency.gradient.withUnsafeMutableBufferPointer { gradAdjacency in
            let target = UnsafeMutableBufferPointer(rebasing: gradAdjacency[(subset * plane)..<((subset + 1) * plane)])
            for share in shares.prefix(parts.count) { share.add(count: plane, to: target) }
        }
        alpha.gradient.values[0] += Float(alphaShares.reduce(0, +))
        let gradRelation = conv4.backward(gradTopology)
        // ∂m₁ and ∂m₂ from ∂P = ∂D ⊙ (1 − D²).
        var gradFirst = Tensor(unspecifiedContentsWithShape: [batch, relations, 1, joints])
        var gradSecond = Tensor(unspecifiedContentsWithShape: [batch, relations, 1, joints])
        withBase(relation, gradRelation) { d, gradD in
            gradFirst.withUnsafeMutableBufferPointer { gradFirst in
                gradSecond.withUnsafeMutableBufferPointer { gradSecond in
                    guard let gradFirst = gradFirst.baseAddress, let gradSecond = gradSecond.baseAddress else { return }
                    forEachRow(of: batch, rowsPerSample: relations) { row in
                        let columns = gradSecond + row * joints
                        columns.update(repeating: 0, count: joints)
                        for u in 0..<joints {
                            let index = (row * joints + u) * joints
                            var total: Float = 0
                            for v in 0..<joints {
                                let value = d[index + v]
                                let gradPre = gradD[index + v] * (1 - value * value)
                                total += gradPre
                                columns[v] -= gradPre
                            }
                            gradFirst[row * joints + u] = total
                        }
                    }
                }
            }
        }
        var gradMean = conv1.backward(gradFirst)
        gradMean.add(conv2.backward(gradSecond))
        // The temporal mean's gradient, spread evenly over the frames.
        var gradInput = conv3.backward(gradProjected)
        let scale = 1 / Float(length)
        gradMean.withUnsafeBufferPointer { gradMean in
            gradInput.withUnsafeMutableBufferPointer { dx in
                guard let gradMean = gradMean.baseAddress, let dx = dx.baseAddress else { return }
                forEachRow(of: batch, rowsPerSample: inChannels) { row in
                    for t in 0..<length {
                        VectorKernels.add(gradMean + row * joints, scaledBy: scale, to: dx + row * frame + t * joints, count: joints)
                    }
                }
            }
        }
        return gradInput
    }
}

/// Calls `body` with the base addresses of two tensors' storage (of at least one element each).
private func withBase<R>(_ a: Tensor, _ b: Tensor, _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> R) -> R {
    withPointers(a, b, a, a) { a, b, _, _ in body(a, b) }
}

/// Calls `body(row)` for every row `n·rowsPerSample + i` of a batch of `batch` samples, the
/// samples split between ``ComputeThreads`` (each part's rows in order on one thread).
private func forEachRow(of batch: Int, rowsPerSample: Int, _ body: (_ row: Int) -> Void) {
    ComputeThreads.forEachPart(of: batch) { _, samples in
        for row in (samples.lowerBound * rowsPerSample)..<(samples.upperBound * rowsPerSample) { body(row) }
    }
}
