/// The evaluation-mode path of a ``SpatialTemporalGraphBlock``: batch normalization folded into
/// the convolutions, ReLU and the residual sum fused into the output passes, and the temporal
/// convolution as `sgemm`s over shifted views of its input instead of a patch matrix.
///
/// Input `[N, C_in, T, V]`, output `[N, C_out, T_out, V]`, `forward(x, training: false)` up to
/// rounding. With each batch normalization's evaluation map `y = scale · x + shift`
/// (``BatchNormalization/evaluationAffineMap()``, Ioffe & Szegedy 2015, §3.1) folded into the
/// layer before it (onnxruntime's `ConvBNFusion`):
///
/// ```
/// g[k]  = x · Ã[k]                                           ([C_in·T, V] · [V, V], Ã = A ⊙ M)
/// h     = ReLU(diag(scale₁) W' · g + plane)                  (graph convolution + temporal.batchNorm + relu)
/// y     = ReLU(Σ_j diag(scale₂) W₂[:, :, j] · h(shifted by j) + b₂' + residual)
/// ```
///
/// `plane[c, w] = scale₁[c] · Σ_k b[k·C_out + c] Σ_v Ã[k, v, w] + shift₁[c]`, `b₂' = scale₂ · b₂ +
/// shift₂` (plus the projection's folded bias), and the residual is `x`, nothing, or the folded
/// 1×1 projection `diag(scale_r) W_r · x[:, ::s]`, written first so that the taps accumulate onto
/// it. Tap `j` of the temporal convolution reads frame `t·s + j·d − p` for output frame `t`; `h` is
/// stored frame-phase by frame-phase (frames `q, q + s, …` for each `q < s`, one run per channel),
/// so that for every tap, at any stride, the frames it reads are one contiguous run of a channel's
/// row and its product is one `sgemm` with `k = C_out` on a view of `h` (no im2col copy).
///
/// The folded weights are computed on first use and again whenever a parameter or buffer of the
/// block changes (``Parameter/version``, ``Buffer/version``), so training, which never calls this
/// path, is unaffected. Every sample is computed alone, by the same calls whatever the batch, so a
/// window's output does not depend on the batch it is in; samples are split between
/// ``ComputeThreads``.
final class SpatialTemporalGraphBlockInference {
    /// The block's layers this path reads.
    struct Layers {
        let graphConvolution: SpatialGraphConvolution
        let batchNorm: BatchNormalization
        let convolution: TemporalConvolution
        let outputBatchNorm: BatchNormalization
        /// The residual projection's convolution and batch normalization, if any.
        let projection: (convolution: TemporalConvolution, batchNorm: BatchNormalization)?
        /// Whether the residual is the input itself.
        let identity: Bool
    }

    private let layers: Layers
    private let parameters: [Parameter]
    private let buffers: [Buffer]
    private var folded: FoldedWeights?
    /// The sum of the parameters' and buffers' versions when ``folded`` was computed.
    private var foldedVersion: UInt64 = 0
    private var scratch: [SampleScratch] = []

    init(_ layers: Layers) {
        self.layers = layers
        var leaves: [any Layer] = [layers.graphConvolution, layers.batchNorm, layers.convolution, layers.outputBatchNorm]
        if let projection = layers.projection { leaves += [projection.convolution, projection.batchNorm] }
        parameters = leaves.flatMap(\.ownParameters)
        buffers = leaves.flatMap(\.ownBuffers)
    }

    /// The block's evaluation-mode output.
    ///
    /// - Parameter x: Input `[N, C_in, T, V]`.
    /// - Returns: Output `[N, C_out, T_out, V]`.
    func apply(_ x: Tensor) -> Tensor {
        let graphConvolution = layers.graphConvolution
        let (inChannels, outChannels, joints) = (graphConvolution.inChannels, graphConvolution.outChannels, graphConvolution.graph.jointCount)
        precondition(x.rank == 4 && x.shape[1] == inChannels && x.shape[3] == joints,
                     "SpatialTemporalGraphBlock expects [N, \(inChannels), T, \(joints)], got \(x.shape)")
        let weights = currentWeights()
        let geometry = SampleGeometry(
            inChannels: inChannels, outChannels: outChannels, length: x.shape[2], joints: joints,
            partitions: graphConvolution.graph.partitionCount, convolution: layers.convolution)
        if let projection = layers.projection?.convolution {
            precondition(projection.outputLength(inputLength: geometry.length) == geometry.outLength,
                         "SpatialTemporalGraphBlock: the projection's and the temporal convolution's lengths differ")
        }
        let batch = x.shape[0]
        var output = Tensor(unspecifiedContentsWithShape: [batch, outChannels, geometry.outLength, joints])
        let parts = ComputeThreads.parts(of: batch)
        while scratch.count < parts.count { scratch.append(SampleScratch()) }
        let scratch = scratch
        let (hasProjection, identity) = (layers.projection != nil, layers.identity)
        x.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                weights.storage.withUnsafeBufferPointer { storage in
                    guard let x = x.baseAddress, let y = y.baseAddress, let storage = storage.baseAddress else { return }
                    let pointers = weights.pointers(into: storage)
                    ComputeThreads.forEach(parts) { part, samples in
                        for n in samples {
                            geometry.run(
                                x: x + n * inChannels * geometry.plane, y: y + n * outChannels * geometry.outPlane,
                                weights: pointers, hasProjection: hasProjection, identity: identity, scratch: scratch[part])
                        }
                    }
                }
            }
        }
        return output
    }

    /// The folded weights of the current parameters, computed again after any change.
    private func currentWeights() -> FoldedWeights {
        let version = parameters.reduce(0) { $0 &+ $1.version } &+ buffers.reduce(0) { $0 &+ $1.version }
        if let folded, foldedVersion == version { return folded }
        let weights = FoldedWeights(layers)
        folded = weights
        foldedVersion = version
        return weights
    }
}

/// A block's weights with batch normalization folded in, in one array.
private final class FoldedWeights {
    /// `Ã` `[K, V, V]`, `W₁''` `[C_out, K·C_in]`, `plane` `[C_out, V]`, the taps `[k, C_out, C_out]`,
    /// the output bias `[C_out]` and the projection `[C_out, C_in]` (empty without one), in order.
    let storage: [Float]
    private let sizes: [Int]

    /// Pointers to the parts of ``storage``.
    struct Pointers {
        let adjacency, mixing, plane, taps, outputBias, projection: UnsafePointer<Float>
    }

    init(_ layers: SpatialTemporalGraphBlockInference.Layers) {
        let graphConvolution = layers.graphConvolution
        let (inChannels, outChannels) = (graphConvolution.inChannels, graphConvolution.outChannels)
        let (partitions, joints) = (graphConvolution.graph.partitionCount, graphConvolution.graph.jointCount)
        var adjacency = graphConvolution.baseAdjacency
        if let edgeImportance = graphConvolution.edgeImportance { adjacency.multiply(by: edgeImportance.value) }
        let a = adjacency.values

        // Graph convolution with temporal.batchNorm: W₁''[c, k·C_in + i] = scale₁[c] · W[k·C_out + c, i].
        let (scale1, shift1) = layers.batchNorm.evaluationAffineMap()
        let (w1, b1) = (graphConvolution.weight.value.values, graphConvolution.bias.value.values)
        var mixing = [Float](repeating: 0, count: outChannels * partitions * inChannels)
        var plane = [Float](repeating: 0, count: outChannels * joints)
        for c in 0..<outChannels {
            for k in 0..<partitions {
                for i in 0..<inChannels {
                    mixing[(c * partitions + k) * inChannels + i] = Float(Double(w1[(k * outChannels + c) * inChannels + i]) * scale1[c])
                }
            }
            for w in 0..<joints {
                var total = 0.0
                for k in 0..<partitions {
                    var columnSum = 0.0
                    for v in 0..<joints { columnSum += Double(a[(k * joints + v) * joints + w]) }
                    total += Double(b1[k * outChannels + c]) * columnSum
                }
                plane[c * joints + w] = Float(scale1[c] * total + shift1[c])
            }
        }

        // Temporal convolution with outputBatchNorm, tap-major: taps[j, o, c] = scale₂[o] · W₂[o, c, j].
        let convolution = layers.convolution
        let kernel = convolution.kernelSize
        let (scale2, shift2) = layers.outputBatchNorm.evaluationAffineMap()
        let w2 = convolution.weight.value.values
        var taps = [Float](repeating: 0, count: kernel * outChannels * outChannels)
        var outputBias = [Double](repeating: 0, count: outChannels)
        for o in 0..<outChannels {
            for c in 0..<outChannels {
                for j in 0..<kernel {
                    taps[(j * outChannels + o) * outChannels + c] = Float(Double(w2[(o * outChannels + c) * kernel + j]) * scale2[o])
                }
            }
            outputBias[o] = scale2[o] * Double(convolution.bias?.value.values[o] ?? 0) + shift2[o]
        }

        // Residual projection with its batch normalization; its bias joins the output bias.
        var projection: [Float] = []
        if let (residual, batchNorm) = layers.projection {
            let (scale, shift) = batchNorm.evaluationAffineMap()
            let w = residual.weight.value.values
            projection = [Float](repeating: 0, count: outChannels * inChannels)
            for o in 0..<outChannels {
                for i in 0..<inChannels { projection[o * inChannels + i] = Float(Double(w[o * inChannels + i]) * scale[o]) }
                outputBias[o] += scale[o] * Double(residual.bias?.value.values[o] ?? 0) + shift[o]
            }
        }
        let parts = [a, mixing, plane, taps, outputBias.map { Float($0) }, projection]
        sizes = parts.map(\.count)
        storage = parts.flatMap { $0 }
    }

    /// The parts of ``storage`` given its base address.
    func pointers(into base: UnsafePointer<Float>) -> Pointers {
        var offsets = [0]
        for size in sizes { offsets.append(offsets[offsets.count - 1] + size) }
        return Pointers(
            adjacency: base + offsets[0], mixing: base + offsets[1], plane: base + offsets[2], taps: base + offsets[3],
            outputBias: base + offsets[4], projection: base + offsets[5])
    }
}

/// One thread's scratch memory: `g`, the graph convolution's product, `h` and the strided input.
private final class SampleScratch {
    let aggregated = Workspace()
    let product = Workspace()
    let hidden = Workspace()
    let strided = Workspace()
}

/// The sizes of one sample's computation and the computation itself.
private struct SampleGeometry {
    let inChannels, outChannels, length, joints, partitions: Int
    let kernel, stride, dilation, padding, outLength: Int
    /// Frames of each phase `q < s` (frames `q, q + s, …`) and where its run starts in a row of `h`.
    let phaseCounts: [Int], phaseStarts: [Int]

    init(inChannels: Int, outChannels: Int, length: Int, joints: Int, partitions: Int, convolution: TemporalConvolution) {
        (self.inChannels, self.outChannels, self.length, self.joints, self.partitions) =
            (inChannels, outChannels, length, joints, partitions)
        (kernel, stride, dilation, padding) =
            (convolution.kernelSize, convolution.stride, convolution.dilation, convolution.padding)
        outLength = convolution.outputLength(inputLength: length)
        precondition(outLength > 0, "SpatialTemporalGraphBlock: input of \(length) frames is shorter than the filter")
        phaseCounts = (0..<convolution.stride).map { max(0, (length - $0 + convolution.stride - 1) / convolution.stride) }
        var starts = [0]
        for count in phaseCounts.dropLast() { starts.append(starts[starts.count - 1] + count) }
        phaseStarts = starts
    }

    var plane: Int { length * joints }
    var outPlane: Int { outLength * joints }

    /// Computes one sample: `x` `[C_in, T, V]` to `y` `[C_out, T_out, V]`.
    func run(
        x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>, weights: FoldedWeights.Pointers,
        hasProjection: Bool, identity: Bool, scratch: SampleScratch
    ) {
        // g[k] ([C_in·T, V]) = x · Ã[k]; h = ReLU(W₁'' · g + plane), stored by frame phase.
        let depth = partitions * inChannels
        guard let aggregated = scratch.aggregated.buffer(count: depth * plane).baseAddress,
              let hidden = scratch.hidden.buffer(count: outChannels * plane).baseAddress else { return }
        for k in 0..<partitions {
            multiplyMatrices(x, lda: joints, weights.adjacency + k * joints * joints, ldb: joints,
                             into: aggregated + k * inChannels * plane, ldc: joints, m: inChannels * length, n: joints, k: joints, beta: 0)
        }
        let product = stride == 1 ? hidden : scratch.product.buffer(count: outChannels * plane).baseAddress ?? hidden
        multiplyMatrices(weights.mixing, lda: depth, aggregated, ldb: plane,
                         into: product, ldc: plane, m: outChannels, n: plane, k: depth, beta: 0)
        for c in 0..<outChannels {
            let bias = weights.plane + c * joints
            for t in 0..<length {
                let source = product + (c * length + t) * joints
                let target = hidden + c * plane + (phaseStarts[t % stride] + t / stride) * joints
                for v in 0..<joints {
                    let value = source[v] + bias[v]
                    target[v] = value > 0 ? value : 0
                }
            }
        }

        // y = the folded projection of x[:, ::s] (when there is one), then + every tap's product.
        var written = false
        if hasProjection {
            var source = x
            if stride > 1, let strided = scratch.strided.buffer(count: inChannels * outPlane).baseAddress {
                for c in 0..<inChannels {
                    for t in 0..<outLength {
                        (strided + (c * outLength + t) * joints).update(from: x + c * plane + t * stride * joints, count: joints)
                    }
                }
                source = UnsafePointer(strided)
            }
            multiplyMatrices(weights.projection, lda: inChannels, source, ldb: stride > 1 ? outPlane : plane,
                             into: y, ldc: outPlane, m: outChannels, n: outPlane, k: inChannels, beta: 0)
            written = true
        }
        // Taps covering every output frame first, so that the first product may overwrite y.
        let taps = (0..<kernel).map(tapFrames).sorted { ($0.first == 0 && $0.end == outLength) && !($1.first == 0 && $1.end == outLength) }
        if !written, !(taps.first.map { $0.first == 0 && $0.end == outLength } ?? false) {
            y.update(repeating: 0, count: outChannels * outPlane)
            written = true
        }
        for tap in taps where tap.end > tap.first {
            multiplyMatrices(weights.taps + tap.index * outChannels * outChannels, lda: outChannels,
                             hidden + tap.inputStart * joints, ldb: plane, into: y + tap.first * joints, ldc: outPlane,
                             m: outChannels, n: (tap.end - tap.first) * joints, k: outChannels, beta: written ? 1 : 0)
            written = true
        }

        // y = ReLU(y + bias + x).
        for o in 0..<outChannels {
            let row = y + o * outPlane
            let bias = weights.outputBias[o]
            if identity {
                let input = x + o * plane
                for i in 0..<outPlane {
                    let value = row[i] + bias + input[i]
                    row[i] = value > 0 ? value : 0
                }
            } else {
                for i in 0..<outPlane {
                    let value = row[i] + bias
                    row[i] = value > 0 ? value : 0
                }
            }
        }
    }

    /// Tap `j`'s output frames `first..<end` that read real input frames, and where in a row of
    /// `h` its input run starts: output frame `t` reads frame `t·s + j·d − p`, which is number
    /// `t + shift` of phase `(j·d − p) mod s`.
    private func tapFrames(_ j: Int) -> (index: Int, first: Int, end: Int, inputStart: Int) {
        let offset = j * dilation - padding
        let phase = ((offset % stride) + stride) % stride
        let shift = (offset - phase) / stride
        let first = max(0, -shift)
        let end = max(first, min(outLength, phaseCounts[phase] - shift))
        return (j, first, end, phaseStarts[phase] + first + shift)
    }
}

/// `C = A · B + beta · C` on row-major views given by their first element and row strides:
/// `A` `[m, k]`, `B` `[k, n]`, `C` `[m, n]` (the views may be parts of larger matrices).
private func multiplyMatrices(
    _ a: UnsafePointer<Float>, lda: Int, _ b: UnsafePointer<Float>, ldb: Int,
    into c: UnsafeMutablePointer<Float>, ldc: Int, m: Int, n: Int, k: Int, beta: Float
) {
    BLAS.sgemm(
        transposeA: .none, transposeB: .none, m: m, n: n, k: k, alpha: 1,
        a: UnsafeBufferPointer(start: a, count: (m - 1) * lda + k), lda: lda,
        b: UnsafeBufferPointer(start: b, count: (k - 1) * ldb + n), ldb: ldb,
        beta: beta, c: UnsafeMutableBufferPointer(start: c, count: (m - 1) * ldc + n), ldc: ldc)
}
