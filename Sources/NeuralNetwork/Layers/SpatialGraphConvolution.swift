import Randomness

/// ST-GCN's spatial graph convolution over a skeleton's partitioned adjacency (st-gcn's
/// `ConvTemporalGraphical` with temporal kernel 1, plus the model's optional edge importance).
///
/// Input `[N, inChannels, T, V]`, output `[N, outChannels, T, V]`. With the graph's adjacency
/// `A` `[K, V, V]` (``SpatialGraph``), the learnable edge importance `M` `[K, V, V]` (ones when
/// disabled), the 1×1 convolution weight `W` `[K·outChannels, inChannels]` and bias `b`
/// `[K·outChannels]`:
///
/// `y[n, c, t, w] = Σ_k Σ_v (Σ_i W[k·C_out + c, i] · x[n, i, t, v] + b[k·C_out + c]) · (A ⊙ M)[k, v, w]`
///
/// which is st-gcn's `x = conv(x); x = x.view(n, K, C_out, t, v); einsum('nkctv,kvw->nctw', x, A * importance)`
/// (`net/utils/tgcn.py`, `net/st_gcn.py`; Yan, Xiong & Lin, AAAI 2018, eq. 10 with the learnable
/// mask of §3.6).
///
/// Both steps are linear, so they are computed in the cheaper order: first the graph
/// aggregation `g[n, k, i, t, w] = Σ_v x[n, i, t, v] · Ã[k, v, w]` (`sgemm` with
/// `m = C_in·T, n = k = V` per sample and partition), then one `sgemm` per sample of the weight
/// rearranged to `[C_out, K·C_in]` with `g[n]` viewed as `[K·C_in, T·V]`. Aggregating the `C_in`
/// inputs instead of the `K·C_out` outputs saves `K·(C_out − C_in)·T·V²` multiply-adds; the bias
/// term becomes `Σ_k b[k·C_out + c] · Σ_v Ã[k, v, w]`.
///
/// With a learned adjacency (``learnedAdjacency``, PYSKL's `unit_gcn` with `adaptive='init'`,
/// `pyskl/models/gcns/utils/gcn.py`; Duan et al., "PYSKL: Towards Good Practices for Skeleton
/// Action Recognition", ACM MM 2022) `A` itself is a parameter, initialized to the graph's
/// adjacency, and `Ã = A` (or `A ⊙ M` with edge importance too).
///
/// PyTorch mapping: `gcn.conv.weight` `[K·C_out, C_in, 1, 1]` → ``weight`` `[K·C_out, C_in]`,
/// `gcn.conv.bias` → ``bias``, the model's `edge_importance[i]` `[K, V, V]` → ``edgeImportance``,
/// PYSKL's `unit_gcn.A` (a parameter with `adaptive='init'`) → ``learnedAdjacency`` (`adjacency`).
public final class SpatialGraphConvolution: Layer {
    /// Channels of the input, `C_in`.
    public let inChannels: Int
    /// Channels of the output, `C_out`.
    public let outChannels: Int
    /// The graph; its adjacency `A` `[K, V, V]` is a constant, not a parameter.
    public let graph: SpatialGraph
    /// The 1×1 convolution weight, `[K·C_out, C_in]`; row `k·C_out + c` feeds partition `k`.
    public let weight: Parameter
    /// The 1×1 convolution bias, `[K·C_out]`.
    public let bias: Parameter
    /// The learnable edge importance `M` `[K, V, V]` multiplying `A` element-wise (initialized to 1),
    /// or `nil` when disabled.
    public let edgeImportance: Parameter?
    /// The learned adjacency `A` `[K, V, V]`, named `adjacency`, initialized to the graph's, or
    /// `nil` when the graph's adjacency is a constant.
    public let learnedAdjacency: Parameter?

    private var input = Tensor(zeros: [0, 0, 0, 0])
    /// The aggregated input `g`, `[N, K·C_in, T·V]`, rows ordered `(k, i)`.
    private var aggregated = Tensor(zeros: [0, 0, 0])
    /// `A ⊙ M` of the last forward call, `[K, V, V]`.
    private var effectiveAdjacency = Tensor(zeros: [0, 0, 0])
    /// Scratch memory of each part of the backward pass, grown to the number of parts.
    private var partScratch: [PartScratch] = []

    /// Creates the layer with PyTorch's default `Conv2d` initialization, U(±1/√C_in), for weight
    /// and bias.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input.
    ///   - outChannels: Channels of the output.
    ///   - graph: The skeleton graph.
    ///   - edgeImportance: Whether to learn the element-wise multiplier `M` on the adjacency.
    ///   - learnsAdjacency: Whether the adjacency `A` itself is a parameter initialized to the
    ///     graph's (PYSKL's `adaptive='init'`).
    ///   - generator: The source of randomness; weight values are drawn first, then bias values.
    public init(inChannels: Int, outChannels: Int, graph: SpatialGraph, edgeImportance: Bool = false,
                learnsAdjacency: Bool = false, using generator: inout SeededGenerator) {
        precondition(inChannels > 0 && outChannels > 0, "SpatialGraphConvolution needs positive channel counts")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.graph = graph
        let rows = graph.partitionCount * outChannels
        weight = Parameter(
            name: "weight",
            value: Initialization.uniformFanIn(shape: [rows, inChannels], fanIn: inChannels, using: &generator))
        bias = Parameter(
            name: "bias", value: Initialization.uniformFanIn(shape: [rows], fanIn: inChannels, using: &generator))
        self.edgeImportance = edgeImportance
            ? Parameter(name: "edgeImportance", value: Tensor(shape: graph.adjacency.shape, repeating: 1))
            : nil
        learnedAdjacency = learnsAdjacency ? Parameter(name: "adjacency", value: graph.adjacency) : nil
    }

    public var ownParameters: [Parameter] {
        [weight, bias] + (learnedAdjacency.map { [$0] } ?? []) + (edgeImportance.map { [$0] } ?? [])
    }

    /// The adjacency before edge importance: the learned one, or the graph's constant, `[K, V, V]`.
    public var baseAdjacency: Tensor { learnedAdjacency?.value ?? graph.adjacency }

    private var partitions: Int { graph.partitionCount }
    private var joints: Int { graph.jointCount }

    /// Aggregates over the graph and mixes channels.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, T, V]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: Output `[N, C_out, T, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition(x.rank == 4 && x.shape[1] == inChannels && x.shape[3] == joints,
                     "SpatialGraphConvolution expects [N, \(inChannels), T, \(joints)], got \(x.shape)")
        let (batch, length) = (x.shape[0], x.shape[2])
        let plane = length * joints
        input = x
        effectiveAdjacency = baseAdjacency
        if let edgeImportance { effectiveAdjacency.multiply(by: edgeImportance.value) }

        // Per sample n, split between ComputeThreads:
        //   g[n, k] ([C_in·T, V]) = x[n] ([C_in·T, V]) · Ã[k] ([V, V])
        //   y[n] ([C_out, T·V]) = W' ([C_out, K·C_in]) · g[n] ([K·C_in, T·V]) + bias plane
        // Every block is written with beta = 0; g's storage is reused when the shape repeats.
        if aggregated.shape != [batch, partitions * inChannels, plane] {
            aggregated = Tensor(unspecifiedContentsWithShape: [batch, partitions * inChannels, plane])
        }
        let mixing = weightByOutputChannel()
        let biasPlane = aggregatedBias()
        let (sampleSize, depth) = (inChannels * plane, partitions * inChannels)
        let (outChannels, partitions, joints) = (outChannels, partitions, joints)
        var output = Tensor(unspecifiedContentsWithShape: [batch, outChannels, length, joints])
        withPointers(x, effectiveAdjacency, mixing, biasPlane) { x, adjacency, mixing, biasPlane in
            aggregated.withUnsafeMutableBufferPointer { g in
                output.withUnsafeMutableBufferPointer { y in
                    guard let g = g.baseAddress, let y = y.baseAddress else { return }
                    ComputeThreads.forEachPart(of: batch) { _, samples in
                        for n in samples {
                            let sample = g + n * depth * plane
                            for k in 0..<partitions {
                                gemm(.none, x + n * sampleSize, .none, adjacency + k * joints * joints,
                                     into: sample + k * sampleSize, m: inChannels * length, n: joints, k: joints, beta: 0)
                            }
                            let target = y + n * outChannels * plane
                            gemm(.none, mixing, .none, sample, into: target, m: outChannels, n: plane, k: depth, beta: 0)
                            for c in 0..<outChannels {
                                for t in 0..<length {
                                    VectorKernels.add(biasPlane + c * joints, to: target + (c * length + t) * joints, count: joints)
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// Accumulates ∂W, ∂b and ∂M and returns ∂x for the last forward call.
    ///
    /// With `G = ∂loss/∂y` `[N, C_out, T, V]`: `∂W' = Σ_n G[n] g[n]ᵀ`, `∂g[n] = W'ᵀ G[n]`,
    /// `∂x[n] = Σ_k ∂g[n, k] Ã[k]ᵀ`, `∂Ã[k] = Σ_n x[n]ᵀ ∂g[n, k] + 1 ⊗ (Σ_c b[k·C_out + c] S[c, ·])`
    /// with `S[c, w] = Σ_{n,t} G[n, c, t, w]`, `∂b[k·C_out + c] = Σ_w S[c, w] Σ_v Ã[k, v, w]`
    /// and `∂M = ∂Ã ⊙ A`; a learned adjacency gets `∂A = ∂Ã ⊙ M` (`∂Ã` without edge importance).
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length) = (input.shape[0], input.shape[2])
        precondition(gradOutput.shape == [batch, outChannels, length, joints],
                     "SpatialGraphConvolution.backward: gradient shape \(gradOutput.shape)")
        let plane = length * joints
        let (depth, sampleSize) = (partitions * inChannels, inChannels * plane)
        let (outChannels, partitions, joints) = (outChannels, partitions, joints)
        let learnsAdjacencyGradient = edgeImportance != nil || learnedAdjacency != nil
        let mixing = weightByOutputChannel()

        // Per sample n, split between ComputeThreads; each part sums its own shares of S, ∂W'
        // and ∂Ã, added in part order below:
        //   S[c, w] += Σ_t G[n, c, t, w]            (for the bias)
        //   ∂W' += G[n] g[n]ᵀ ;  ∂g[n] = W'ᵀ G[n]
        //   ∂x[n] = Σ_k ∂g[n, k] Ã[k]ᵀ ;  ∂Ã[k] += x[n]ᵀ ∂g[n, k]
        let parts = ComputeThreads.parts(of: batch)
        while partScratch.count < parts.count { partScratch.append(PartScratch()) }
        let shares = partScratch
        let shareSizes = (sums: outChannels * joints, mixing: outChannels * depth, adjacency: partitions * joints * joints)
        var gradInput = Tensor(unspecifiedContentsWithShape: input.shape)
        withPointers(input, effectiveAdjacency, mixing, gradOutput) { x, adjacency, mixing, gradY in
            aggregated.withUnsafeBufferPointer { g in
                gradInput.withUnsafeMutableBufferPointer { dx in
                    guard let g = g.baseAddress, let dx = dx.baseAddress else { return }
                    ComputeThreads.forEach(parts) { part, samples in
                        let scratch = shares[part]
                        let sums = scratch.outputSums.buffer(count: shareSizes.sums)
                        let gradMixing = scratch.gradMixing.buffer(count: shareSizes.mixing)
                        let gradAdjacency = scratch.gradAdjacency.buffer(count: shareSizes.adjacency)
                        let gradAggregated = scratch.gradAggregated.buffer(count: depth * plane)
                        sums.update(repeating: 0)
                        gradMixing.update(repeating: 0)
                        gradAdjacency.update(repeating: 0)
                        guard let sums = sums.baseAddress, let gradMixing = gradMixing.baseAddress,
                              let gradAdjacency = gradAdjacency.baseAddress,
                              let gradAggregated = gradAggregated.baseAddress else { return }
                        for n in samples {
                            let gradSample = gradY + n * outChannels * plane
                            for c in 0..<outChannels {
                                for t in 0..<length {
                                    VectorKernels.add(gradSample + (c * length + t) * joints, to: sums + c * joints, count: joints)
                                }
                            }
                            gemm(.none, gradSample, .transpose, g + n * depth * plane,
                                 into: gradMixing, m: outChannels, n: depth, k: plane, beta: 1)
                            gemm(.transpose, mixing, .none, gradSample,
                                 into: gradAggregated, m: depth, n: plane, k: outChannels, beta: 0)
                            for k in 0..<partitions {
                                let block = gradAggregated + k * sampleSize
                                gemm(.none, block, .transpose, adjacency + k * joints * joints,
                                     into: dx + n * sampleSize, m: inChannels * length, n: joints, k: joints,
                                     beta: k == 0 ? 0 : 1)
                                if learnsAdjacencyGradient {
                                    gemm(.transpose, x + n * sampleSize, .none, block,
                                         into: gradAdjacency + k * joints * joints, m: joints, n: joints,
                                         k: inChannels * length, beta: 1)
                                }
                            }
                        }
                    }
                }
            }
        }
        // The parts' shares, added in part order.
        var outputSums = [Float](repeating: 0, count: shareSizes.sums)
        var gradMixing = Tensor(zeros: [outChannels, depth])
        var gradAdjacency = Tensor(zeros: effectiveAdjacency.shape)
        for part in parts.indices {
            let scratch = shares[part]
            outputSums.withUnsafeMutableBufferPointer { total in
                scratch.outputSums.add(count: shareSizes.sums, to: total)
            }
            gradMixing.withUnsafeMutableBufferPointer { total in
                scratch.gradMixing.add(count: shareSizes.mixing, to: total)
            }
            if learnsAdjacencyGradient {
                gradAdjacency.withUnsafeMutableBufferPointer { total in
                    scratch.gradAdjacency.add(count: shareSizes.adjacency, to: total)
                }
            }
        }

        // Bias: ∂b[k·C_out + c] = Σ_w S[c, w] Σ_v Ã[k, v, w].
        let columnSums = adjacencyColumnSums()
        for k in 0..<partitions {
            for c in 0..<outChannels {
                var total: Float = 0
                for w in 0..<joints { total += outputSums[c * joints + w] * columnSums[k * joints + w] }
                bias.gradient.values[k * outChannels + c] += total
            }
        }
        weight.gradient.add(gradMixing.swappingAxes(
            outer: 1, outChannels, partitions, inner: inChannels, shape: weight.value.shape))
        if learnsAdjacencyGradient {
            // The bias term Σ_k b ⊗ column sums of Ã: ∂Ã[k, v, w] += Σ_c b[k·C_out + c] S[c, w].
            for k in 0..<partitions {
                for w in 0..<joints {
                    var total: Float = 0
                    for c in 0..<outChannels { total += bias.value.values[k * outChannels + c] * outputSums[c * joints + w] }
                    for v in 0..<joints { gradAdjacency.values[(k * joints + v) * joints + w] += total }
                }
            }
            if let learnedAdjacency {
                var gradLearned = gradAdjacency
                if let edgeImportance { gradLearned.multiply(by: edgeImportance.value) }
                learnedAdjacency.gradient.add(gradLearned)
            }
            if let edgeImportance {
                gradAdjacency.multiply(by: baseAdjacency)
                edgeImportance.gradient.add(gradAdjacency)
            }
        }
        return gradInput
    }

    /// The weight rearranged from `[K, C_out, C_in]` to `W'` `[C_out, K·C_in]`.
    private func weightByOutputChannel() -> Tensor {
        weight.value.swappingAxes(outer: 1, partitions, outChannels, inner: inChannels,
                                  shape: [outChannels, partitions * inChannels])
    }

    /// `Σ_v Ã[k, v, w]`, `[K·V]`.
    private func adjacencyColumnSums() -> [Float] {
        var sums = [Float](repeating: 0, count: partitions * joints)
        effectiveAdjacency.withUnsafeBufferPointer { a in
            for k in 0..<partitions {
                for v in 0..<joints {
                    for w in 0..<joints { sums[k * joints + w] += a[(k * joints + v) * joints + w] }
                }
            }
        }
        return sums
    }

    /// The bias after aggregation, `[C_out, V]`: `Σ_k b[k·C_out + c] · Σ_v Ã[k, v, w]`.
    private func aggregatedBias() -> Tensor {
        let columnSums = adjacencyColumnSums()
        var plane = Tensor(zeros: [outChannels, joints])
        for k in 0..<partitions {
            for c in 0..<outChannels {
                let b = bias.value.values[k * outChannels + c]
                for w in 0..<joints { plane.values[c * joints + w] += b * columnSums[k * joints + w] }
            }
        }
        return plane
    }
}

/// One part's scratch memory in the backward pass: its shares of the sums and one sample's `∂g`.
private final class PartScratch {
    /// The part's share of `S`, `[C_out, V]`.
    let outputSums = Workspace()
    /// The part's share of `∂W'`, `[C_out, K·C_in]`.
    let gradMixing = Workspace()
    /// The part's share of `∂Ã`, `[K, V, V]`.
    let gradAdjacency = Workspace()
    /// `∂g` of the sample being processed, `[K·C_in, T·V]`.
    let gradAggregated = Workspace()
}

/// Calls `body` with the base addresses of four tensors' storage (of at least one element each)
/// (shared with ``ChannelwiseTopologyRefinement``).
func withPointers<R>(
    _ a: Tensor, _ b: Tensor, _ c: Tensor, _ d: Tensor,
    _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R
) -> R {
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            c.withUnsafeBufferPointer { c in
                d.withUnsafeBufferPointer { d in
                    guard let a = a.baseAddress, let b = b.baseAddress, let c = c.baseAddress, let d = d.baseAddress else {
                        preconditionFailure("withPointers: empty tensor")
                    }
                    return body(a, b, c, d)
                }
            }
        }
    }
}

/// `c = op(a) · op(b) + beta · c` on densely stored row-major matrices given by their first
/// element: `op(a)` `[m, k]`, `op(b)` `[k, n]`, `c` `[m, n]` (shared with
/// ``ChannelwiseTopologyRefinement``).
func gemm(
    _ transposeA: BLAS.Transpose, _ a: UnsafePointer<Float>, _ transposeB: BLAS.Transpose, _ b: UnsafePointer<Float>,
    into c: UnsafeMutablePointer<Float>, m: Int, n: Int, k: Int, beta: Float
) {
    BLAS.sgemm(
        transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1,
        a: UnsafeBufferPointer(start: a, count: m * k), lda: max(1, transposeA == .none ? k : m),
        b: UnsafeBufferPointer(start: b, count: k * n), ldb: max(1, transposeB == .none ? n : k),
        beta: beta, c: UnsafeMutableBufferPointer(start: c, count: m * n), ldc: max(1, n))
}
