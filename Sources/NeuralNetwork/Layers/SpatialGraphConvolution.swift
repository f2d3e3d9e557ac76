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
/// PyTorch mapping: `gcn.conv.weight` `[K·C_out, C_in, 1, 1]` → ``weight`` `[K·C_out, C_in]`,
/// `gcn.conv.bias` → ``bias``, the model's `edge_importance[i]` `[K, V, V]` → ``edgeImportance``.
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

    private var input = Tensor(zeros: [0, 0, 0, 0])
    /// The aggregated input `g`, `[N, K·C_in, T·V]`, rows ordered `(k, i)`.
    private var aggregated = Tensor(zeros: [0, 0, 0])
    /// `A ⊙ M` of the last forward call, `[K, V, V]`.
    private var effectiveAdjacency = Tensor(zeros: [0, 0, 0])

    /// Creates the layer with PyTorch's default `Conv2d` initialization, U(±1/√C_in), for weight
    /// and bias.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input.
    ///   - outChannels: Channels of the output.
    ///   - graph: The skeleton graph.
    ///   - edgeImportance: Whether to learn the element-wise multiplier `M` on the adjacency.
    ///   - generator: The source of randomness; weight values are drawn first, then bias values.
    public init(inChannels: Int, outChannels: Int, graph: SpatialGraph, edgeImportance: Bool = false,
                using generator: inout SeededGenerator) {
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
    }

    public var ownParameters: [Parameter] { [weight, bias] + (edgeImportance.map { [$0] } ?? []) }

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
        effectiveAdjacency = graph.adjacency
        if let edgeImportance { effectiveAdjacency.multiply(by: edgeImportance.value) }

        // g[n, k] ([C_in·T, V]) = x[n] ([C_in·T, V]) · Ã[k] ([V, V])
        // Every block is written with beta = 0; the storage is reused when the shape repeats.
        if aggregated.shape != [batch, partitions * inChannels, plane] {
            aggregated = Tensor(unspecifiedContentsWithShape: [batch, partitions * inChannels, plane])
        }
        let sampleSize = inChannels * plane
        for n in 0..<batch {
            for k in 0..<partitions {
                gemm(.none, x, at: n * sampleSize, .none, effectiveAdjacency, at: k * joints * joints,
                     into: &aggregated, at: (n * partitions + k) * sampleSize,
                     m: inChannels * length, n: joints, k: joints, beta: 0)
            }
        }
        // y[n] ([C_out, T·V]) = W' ([C_out, K·C_in]) · g[n] ([K·C_in, T·V]) + bias plane
        let mixing = weightByOutputChannel()
        let biasPlane = aggregatedBias()
        var output = Tensor(unspecifiedContentsWithShape: [batch, outChannels, length, joints])
        let depth = partitions * inChannels
        for n in 0..<batch {
            gemm(.none, mixing, at: 0, .none, aggregated, at: n * depth * plane,
                 into: &output, at: n * outChannels * plane, m: outChannels, n: plane, k: depth, beta: 0)
        }
        output.withUnsafeMutableBufferPointer { y in
            biasPlane.withUnsafeBufferPointer { b in
                for n in 0..<batch {
                    for c in 0..<outChannels {
                        for t in 0..<length {
                            let base = ((n * outChannels + c) * length + t) * joints
                            for w in 0..<joints { y[base + w] += b[c * joints + w] }
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
    /// and `∂M = ∂Ã ⊙ A`.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, T, V]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let (batch, length) = (input.shape[0], input.shape[2])
        precondition(gradOutput.shape == [batch, outChannels, length, joints],
                     "SpatialGraphConvolution.backward: gradient shape \(gradOutput.shape)")
        let plane = length * joints
        let depth = partitions * inChannels
        let mixing = weightByOutputChannel()

        // Bias: S[c, w] = Σ_{n,t} G[n, c, t, w].
        var outputSums = [Float](repeating: 0, count: outChannels * joints)
        gradOutput.withUnsafeBufferPointer { g in
            for n in 0..<batch {
                for c in 0..<outChannels {
                    for t in 0..<length {
                        let base = ((n * outChannels + c) * length + t) * joints
                        for w in 0..<joints { outputSums[c * joints + w] += g[base + w] }
                    }
                }
            }
        }
        let columnSums = adjacencyColumnSums()
        for k in 0..<partitions {
            for c in 0..<outChannels {
                var total: Float = 0
                for w in 0..<joints { total += outputSums[c * joints + w] * columnSums[k * joints + w] }
                bias.gradient.values[k * outChannels + c] += total
            }
        }

        // ∂W' = Σ_n G[n] g[n]ᵀ ; ∂g[n] = W'ᵀ G[n]
        var gradMixing = Tensor(zeros: [outChannels, depth])
        var gradAggregated = Tensor(unspecifiedContentsWithShape: [batch, depth, plane])
        for n in 0..<batch {
            gemm(.none, gradOutput, at: n * outChannels * plane, .transpose, aggregated, at: n * depth * plane,
                 into: &gradMixing, at: 0, m: outChannels, n: depth, k: plane, beta: 1)
            gemm(.transpose, mixing, at: 0, .none, gradOutput, at: n * outChannels * plane,
                 into: &gradAggregated, at: n * depth * plane, m: depth, n: plane, k: outChannels, beta: 0)
        }
        weight.gradient.add(gradMixing.swappingAxes(
            outer: 1, outChannels, partitions, inner: inChannels, shape: weight.value.shape))

        // ∂x[n] = Σ_k ∂g[n, k] Ã[k]ᵀ ; ∂Ã[k] = Σ_n x[n]ᵀ ∂g[n, k]
        var gradInput = Tensor(unspecifiedContentsWithShape: input.shape)
        var gradAdjacency = Tensor(zeros: effectiveAdjacency.shape)
        let sampleSize = inChannels * plane
        for n in 0..<batch {
            for k in 0..<partitions {
                let block = (n * partitions + k) * sampleSize
                gemm(.none, gradAggregated, at: block, .transpose, effectiveAdjacency, at: k * joints * joints,
                     into: &gradInput, at: n * sampleSize, m: inChannels * length, n: joints, k: joints,
                     beta: k == 0 ? 0 : 1)
                if edgeImportance != nil {
                    gemm(.transpose, input, at: n * sampleSize, .none, gradAggregated, at: block,
                         into: &gradAdjacency, at: k * joints * joints, m: joints, n: joints, k: inChannels * length,
                         beta: 1)
                }
            }
        }
        if let edgeImportance {
            // The bias term Σ_k b ⊗ column sums of Ã: ∂Ã[k, v, w] += Σ_c b[k·C_out + c] S[c, w].
            for k in 0..<partitions {
                for w in 0..<joints {
                    var total: Float = 0
                    for c in 0..<outChannels { total += bias.value.values[k * outChannels + c] * outputSums[c * joints + w] }
                    for v in 0..<joints { gradAdjacency.values[(k * joints + v) * joints + w] += total }
                }
            }
            gradAdjacency.multiply(by: graph.adjacency)
            edgeImportance.gradient.add(gradAdjacency)
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

/// `c[cOffset...] = op(a[aOffset...]) · op(b[bOffset...]) + beta · c[cOffset...]` on densely
/// stored row-major sub-matrices of tensors (`sgemm` on a slice of each buffer).
private func gemm(
    _ transposeA: BLAS.Transpose, _ a: Tensor, at aOffset: Int,
    _ transposeB: BLAS.Transpose, _ b: Tensor, at bOffset: Int,
    into c: inout Tensor, at cOffset: Int, m: Int, n: Int, k: Int, beta: Float
) {
    a.withUnsafeBufferPointer { aBuffer in
        b.withUnsafeBufferPointer { bBuffer in
            c.withUnsafeMutableBufferPointer { cBuffer in
                BLAS.sgemm(
                    transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1,
                    a: UnsafeBufferPointer(rebasing: aBuffer[aOffset..<(aOffset + m * k)]),
                    lda: max(1, transposeA == .none ? k : m),
                    b: UnsafeBufferPointer(rebasing: bBuffer[bOffset..<(bOffset + k * n)]),
                    ldb: max(1, transposeB == .none ? n : k),
                    beta: beta,
                    c: UnsafeMutableBufferPointer(rebasing: cBuffer[cOffset..<(cOffset + m * n)]),
                    ldc: max(1, n))
            }
        }
    }
}
