import Randomness

/// A convolution over time (PyTorch's `nn.Conv1d` with `groups = 1`, or `nn.Conv2d` with a
/// `k×1` kernel on rank-4 input).
///
/// Input `[N, inChannels, T]`, output `[N, outChannels, T_out]` with
/// `T_out = ⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1` (the `Conv1d` shape formula in PyTorch's
/// documentation), zero padding `p` on both ends, stride `s` and dilation `d`:
///
/// `y[n, o, t] = b[o] + Σ_c Σ_j W[o, c, j] · x[n, c, t·s − p + j·d]`
///
/// A rank-4 input `[N, inChannels, T, V]` (a graph model's joints `V`) is convolved over `T` for
/// every `v` independently with the same filters, giving `[N, outChannels, T_out, V]`: st-gcn's
/// temporal convolution `nn.Conv2d(C, C, (k, 1), (s, 1), (p, 0))` (`net/st_gcn.py`), whose weight
/// `[out, in, k, 1]` is this layer's `[out, in, k]`.
///
/// Computed in chunks of samples sized to stay in cache: the chunk's input patches are laid out
/// as a `[inChannels·k, B·T_out·V]` matrix (im2col, `V = 1` for rank-3 input) in a workspace the
/// layer keeps between calls, and one `sgemm` with the `[outChannels, inChannels·k]` weight gives
/// the chunk's output. The chunk holds as many samples `B` as fit ``patchBudget`` floats (at least
/// one): the whole batch for a `tcn` (`378 × 1920` at batch 32), one sample for st-gcn's blocks
/// (`576 × 1080`, 2.5 MB), where a whole-batch im2col would be 80 MB and memory-bound. With one
/// sample the `sgemm` writes the output in place. At stride 1 a patch row is one contiguous copy
/// of the input row, shifted by the tap; a `1×1` convolution without stride or padding multiplies
/// the input directly. The backward pass rebuilds each chunk's patches (cheaper than keeping the
/// batch's), accumulates `∂W` with one `sgemm` per chunk and scatters the patch gradient back to
/// the input (col2im), the adjoint of the same index map.
///
/// When a chunk holds one sample and the convolution has stride 1 and more than one tap (st-gcn's
/// `9×1` convolutions), there is no patch matrix at all: tap `j` reads the input shifted by
/// `j·d − p` frames, a view of the sample itself with row stride `T·V`, so the output is the sum
/// of `k` products `W[:, :, j] · x_shifted` (one `sgemm` each, `[outChannels, inChannels]` by
/// `[inChannels, T_out·V]`, over the output frames where the tap reads a real frame). The backward
/// pass is the same per tap: `∂W[:, :, j] += ∂Y · x_shiftedᵀ` and `∂x_shifted += W[:, :, j]ᵀ · ∂Y`.
/// This saves im2col's copy of `k` shifted inputs and col2im's `k` additions; OpenBLAS packs the
/// shifted views as it would the patches.
///
/// With ``ComputeThreads/count`` above 1, the batch is cut into a multiple of that many chunks of
/// balanced sizes (a `tcn`'s batch, one chunk at one thread, becomes one chunk a thread), and
/// consecutive runs of chunks go to that many threads. Each worker writes its own samples'
/// outputs and input gradients and sums its own share of `∂W`; the shares are added in worker
/// order, so results are bit-identical for a given thread count (and differ from one thread's
/// only in the last bits).
public final class TemporalConvolution: Layer {
    /// How much zero padding to add at each end of the time axis.
    public enum Padding: Hashable, Sendable {
        /// `d(k − 1)/2` frames at each end, so that `T_out = T` at stride 1; needs an odd kernel
        /// size. (PyTorch's `padding="same"`, which PyTorch allows only at stride 1; here the same
        /// padding is also used with a larger stride.)
        case same
        /// The given number of frames at each end (PyTorch's integer `padding`).
        case explicit(Int)
    }

    /// Channels of the input.
    public let inChannels: Int
    /// Channels of the output (number of filters).
    public let outChannels: Int
    /// Taps of each filter, `k`.
    public let kernelSize: Int
    /// Step between output frames in input frames, `s`.
    public let stride: Int
    /// Zero frames added at each end of the time axis, `p` (resolved from ``Padding``).
    public let padding: Int
    /// Spacing between filter taps in input frames, `d`.
    public let dilation: Int
    /// The filters `W`, shape `[outChannels, inChannels, kernelSize]`.
    public let weight: Parameter
    /// The bias `b`, shape `[outChannels]`, or `nil` for a convolution without bias.
    public let bias: Parameter?

    /// The input of the last forward call, kept for the backward pass.
    private var input = Tensor(zeros: [0, 0, 0])
    /// Scratch memory of each worker thread, grown to the number of workers.
    private var scratch: [ChunkScratch] = []
    /// The filters tap by tap, `[kernelSize, outChannels, inChannels]`, for the calls computed by taps.
    private let tapWeights = Workspace()

    /// The default of ``patchBudget``: 2²⁰ floats (4 MiB), so that a chunk's patches stay in cache.
    public static let defaultPatchBudget = 1 << 20

    /// The largest patch matrix of a chunk of samples, in floats; a chunk always holds at least
    /// one sample. Only speed depends on it (and the last bits of sums, which `sgemm` may group
    /// differently for different matrix widths).
    public var patchBudget = TemporalConvolution.defaultPatchBudget

    /// Creates a convolution with PyTorch's default initialization, U(±1/√(inChannels·k)) for
    /// weight and bias.
    ///
    /// - Parameters:
    ///   - inChannels: Channels of the input.
    ///   - outChannels: Channels of the output.
    ///   - kernelSize: Taps of each filter.
    ///   - stride: Step between output frames.
    ///   - padding: `.same` (default) or an explicit number of zero frames at each end.
    ///   - dilation: Spacing between taps.
    ///   - bias: Whether to learn an additive bias per output channel.
    ///   - generator: The source of randomness; weight values are drawn first, then bias values.
    public init(
        inChannels: Int, outChannels: Int, kernelSize: Int,
        stride: Int = 1, padding: Padding = .same, dilation: Int = 1, bias: Bool = true,
        using generator: inout SeededGenerator
    ) {
        precondition(inChannels > 0 && outChannels > 0 && kernelSize > 0 && stride > 0 && dilation > 0,
                     "TemporalConvolution needs positive channels, kernel size, stride and dilation")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.kernelSize = kernelSize
        self.stride = stride
        self.dilation = dilation
        switch padding {
        case .same:
            precondition(kernelSize % 2 == 1, "padding .same needs an odd kernel size, got \(kernelSize)")
            self.padding = dilation * (kernelSize - 1) / 2
        case .explicit(let frames):
            precondition(frames >= 0, "padding must be non-negative, got \(frames)")
            self.padding = frames
        }
        let fanIn = inChannels * kernelSize
        weight = Parameter(
            name: "weight",
            value: Initialization.uniformFanIn(
                shape: [outChannels, inChannels, kernelSize], fanIn: fanIn, using: &generator))
        self.bias = bias
            ? Parameter(
                name: "bias",
                value: Initialization.uniformFanIn(shape: [outChannels], fanIn: fanIn, using: &generator))
            : nil
    }

    public var ownParameters: [Parameter] { [weight] + (bias.map { [$0] } ?? []) }

    /// The output length of a convolution, PyTorch's `Conv1d` formula
    /// `⌊(T + 2p − d(k − 1) − 1) / s⌋ + 1`.
    ///
    /// - Parameters:
    ///   - inputLength: Input frames `T`.
    ///   - kernelSize: Taps `k`.
    ///   - stride: Step `s`.
    ///   - padding: Zero frames `p` at each end.
    ///   - dilation: Tap spacing `d`.
    /// - Returns: Output frames; 0 or less when the padded input is shorter than one filter.
    public static func outputLength(
        inputLength: Int, kernelSize: Int, stride: Int = 1, padding: Int = 0, dilation: Int = 1
    ) -> Int {
        let span = inputLength + 2 * padding - dilation * (kernelSize - 1) - 1
        // Floor division (Swift's `/` truncates toward zero).
        return (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1
    }

    /// The output length of this layer for `inputLength` input frames.
    public func outputLength(inputLength: Int) -> Int {
        Self.outputLength(inputLength: inputLength, kernelSize: kernelSize, stride: stride,
                          padding: padding, dilation: dilation)
    }

    /// Convolves a batch.
    ///
    /// - Parameters:
    ///   - x: Input `[N, inChannels, T]` or `[N, inChannels, T, V]`.
    ///   - training: Unused; the layer behaves the same in both modes.
    /// - Returns: Output `[N, outChannels, T_out]` or `[N, outChannels, T_out, V]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        precondition((x.rank == 3 || x.rank == 4) && x.shape[1] == inChannels,
                     "TemporalConvolution expects [N, \(inChannels), T] or [N, \(inChannels), T, V], got \(x.shape)")
        let geometry = Geometry(x.shape, outLength: outputLength(inputLength: x.shape[2]))
        precondition(geometry.outLength > 0, "TemporalConvolution: input of \(geometry.length) frames is shorter than the filter")
        input = x
        let patchSize = inChannels * kernelSize
        let plane = geometry.outPlane
        let chunks = chunks(geometry)
        if convolvesByTaps(chunks, geometry) {
            var output = Tensor(unspecifiedContentsWithShape: geometry.outputShape(outChannels))
            forwardByTaps(x, into: &output, chunks: chunks, geometry)
            if let bias {
                addChannelBias(bias.value, to: &output, batch: geometry.batch, channels: outChannels, inner: plane)
            }
            return output
        }
        var output = Tensor(shape: geometry.outputShape(outChannels)) { y in
            x.withUnsafeBufferPointer { source in
                weight.value.withUnsafeBufferPointer { w in
                    _ = forEachWorker(chunks) { _, _, scratch, chunks in
                        for samples in chunks {
                            // Y[chunk] ([outChannels, B·T_out·V]) = W ([outChannels, inChannels·k]) · patches
                            let patches = withPatches(of: source, samples: samples, geometry, into: scratch.columns)
                            let width = samples.count * plane
                            let chunkOutput = samples.count == 1
                                ? UnsafeMutableBufferPointer(rebasing: y[(samples.lowerBound * outChannels * plane)...])
                                : scratch.product.buffer(count: outChannels * width)
                            BLAS.sgemm(
                                transposeA: .none, transposeB: .none, m: outChannels, n: width, k: patchSize, alpha: 1,
                                a: w, lda: patchSize, b: patches.buffer, ldb: patches.stride, beta: 0,
                                c: chunkOutput, ldc: width)
                            if samples.count > 1 {
                                scatter(UnsafeBufferPointer(chunkOutput), into: y, samples: samples, plane: plane)
                            }
                        }
                    }
                }
            }
        }
        if let bias {
            addChannelBias(bias.value, to: &output, batch: geometry.batch, channels: outChannels, inner: plane)
        }
        return output
    }

    /// Accumulates ∂W and ∂b and returns ∂x for the last forward call.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, outChannels, T_out]` or `[N, outChannels, T_out, V]`.
    /// - Returns: ∂loss/∂x, `[N, inChannels, T]` or `[N, inChannels, T, V]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        let geometry = Geometry(input.shape, outLength: outputLength(inputLength: input.shape[2]))
        precondition(gradOutput.shape == geometry.outputShape(outChannels),
                     "TemporalConvolution.backward: gradient shape \(gradOutput.shape)")
        let (plane, inputPlane) = (geometry.outPlane, geometry.inPlane)
        if let bias {
            accumulateChannelSums(of: gradOutput, into: &bias.gradient,
                                  batch: geometry.batch, channels: outChannels, inner: plane)
        }
        let patchSize = inChannels * kernelSize
        var gradInput = Tensor(unspecifiedContentsWithShape: input.shape)
        let chunks = chunks(geometry)
        if convolvesByTaps(chunks, geometry) {
            backwardByTaps(gradOutput, into: &gradInput, chunks: chunks, geometry)
            return gradInput
        }
        var workers = 1
        input.withUnsafeBufferPointer { source in
            gradOutput.withUnsafeBufferPointer { g in
                weight.value.withUnsafeBufferPointer { w in
                    gradInput.withUnsafeMutableBufferPointer { dx in
                        workers = forEachWorker(chunks) { _, workerCount, scratch, chunks in
                            // One worker sums ∂W in place; several each sum their share first.
                            let share = workerCount > 1 ? scratch.gradWeight.buffer(count: outChannels * patchSize) : nil
                            for (position, samples) in chunks.enumerated() {
                                let width = samples.count * plane
                                // ∂Y of the chunk as [outChannels, B·T_out·V].
                                let gradChunk: UnsafeBufferPointer<Float>
                                if samples.count == 1 {
                                    gradChunk = UnsafeBufferPointer(rebasing: g[(samples.lowerBound * outChannels * plane)...])
                                } else {
                                    let gathered = scratch.product.buffer(count: outChannels * width)
                                    gather(g, into: gathered, samples: samples, plane: plane)
                                    gradChunk = UnsafeBufferPointer(gathered)
                                }
                                // ∂W[o, r] += Σ_col ∂Y[o, col] · patches[r, col]
                                let patches = withPatches(of: source, samples: samples, geometry, into: scratch.columns)
                                func accumulate(into dw: UnsafeMutableBufferPointer<Float>, beta: Float) {
                                    BLAS.sgemm(
                                        transposeA: .none, transposeB: .transpose, m: outChannels, n: patchSize, k: width,
                                        alpha: 1, a: gradChunk, lda: width, b: patches.buffer, ldb: patches.stride,
                                        beta: beta, c: dw, ldc: patchSize)
                                }
                                if let share {
                                    accumulate(into: share, beta: position == 0 ? 0 : 1)
                                } else {
                                    weight.gradient.withUnsafeMutableBufferPointer { accumulate(into: $0, beta: 1) }
                                }
                                let chunkInput = UnsafeMutableBufferPointer(
                                    rebasing: dx[(samples.lowerBound * inChannels * inputPlane)..<(samples.upperBound * inChannels * inputPlane)])
                                if isPointwise(geometry), samples.count == 1 {
                                    // ∂x[n] = Wᵀ · ∂Y[n] directly: the patches are the input itself.
                                    BLAS.sgemm(
                                        transposeA: .transpose, transposeB: .none, m: patchSize, n: plane, k: outChannels,
                                        alpha: 1, a: w, lda: patchSize, b: gradChunk, ldb: plane, beta: 0,
                                        c: chunkInput, ldc: plane)
                                    continue
                                }
                                // ∂patches[r, col] = Σ_o W[o, r] · ∂Y[o, col], then col2im.
                                let gradPatches = scratch.gradColumns.buffer(count: patchSize * width)
                                BLAS.sgemm(
                                    transposeA: .transpose, transposeB: .none, m: patchSize, n: width, k: outChannels,
                                    alpha: 1, a: w, lda: patchSize, b: gradChunk, ldb: width, beta: 0,
                                    c: gradPatches, ldc: width)
                                scatterPatches(UnsafeBufferPointer(gradPatches), into: chunkInput, samples: samples.count, geometry)
                            }
                        }
                    }
                }
            }
        }
        if workers > 1 {
            // The workers' shares of ∂W, added in worker order.
            weight.gradient.withUnsafeMutableBufferPointer { dw in
                for worker in 0..<workers { scratch[worker].gradWeight.add(count: outChannels * patchSize, to: dw) }
            }
        }
        return gradInput
    }

    /// Calls `body(worker, workers, scratch, chunks)` for each worker's run of consecutive chunks:
    /// ``ComputeThreads/count`` runs (fewer when there are fewer chunks), at once on as many
    /// threads, each with its own scratch memory.
    /// - Returns: The number of workers, `workers`.
    @discardableResult
    private func forEachWorker(
        _ chunks: [Range<Int>],
        _ body: (_ worker: Int, _ workers: Int, _ scratch: ChunkScratch, _ chunks: ArraySlice<Range<Int>>) -> Void
    ) -> Int {
        let groups = ComputeThreads.parts(of: chunks.count)
        while scratch.count < groups.count { scratch.append(ChunkScratch()) }
        let workspaces = scratch
        ComputeThreads.forEach(groups) { worker, range in
            body(worker, groups.count, workspaces[worker], chunks[range])
        }
        return groups.count
    }

    /// Whether a call is computed tap by tap instead of through im2col: stride 1, more than one
    /// tap, and chunks of one sample (a sample's patch matrix fills at least half of ``patchBudget``).
    private func convolvesByTaps(_ chunks: [Range<Int>], _ geometry: Geometry) -> Bool {
        stride == 1 && kernelSize > 1 && chunks.count == geometry.batch
    }

    /// Copies the filters into ``tapWeights`` as `[kernelSize, outChannels, inChannels]`: tap `j`'s
    /// `[outChannels, inChannels]` matrix, contiguous for `sgemm`.
    private func currentTapWeights() -> UnsafeBufferPointer<Float> {
        let taps = tapWeights.buffer(count: kernelSize * outChannels * inChannels)
        weight.value.withUnsafeBufferPointer { w in
            for o in 0..<outChannels {
                for c in 0..<inChannels {
                    for j in 0..<kernelSize {
                        taps[(j * outChannels + o) * inChannels + c] = w[(o * inChannels + c) * kernelSize + j]
                    }
                }
            }
        }
        return UnsafeBufferPointer(taps)
    }

    /// The forward pass of one-sample chunks at stride 1: for every sample `n` and tap `j`,
    /// `y[n, :, first..<end] += W[:, :, j] · x[n, :, first + offset..<end + offset]` over the
    /// output frames where the tap reads a real frame (``taps(_:_:)``), into zeros.
    private func forwardByTaps(_ x: Tensor, into output: inout Tensor, chunks: [Range<Int>], _ geometry: Geometry) {
        let (plane, inputPlane, width) = (geometry.outPlane, geometry.inPlane, geometry.width)
        let taps = currentTapWeights()
        let filterSize = outChannels * inChannels
        x.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { y in
                _ = forEachWorker(chunks) { _, _, _, chunks in
                    for n in chunks.joined() {
                        let sampleOutput = UnsafeMutableBufferPointer(rebasing: y[(n * outChannels * plane)..<((n + 1) * outChannels * plane)])
                        sampleOutput.update(repeating: 0)
                        for j in 0..<kernelSize {
                            let tap = self.taps(j, geometry)
                            guard tap.end > tap.first else { continue }
                            BLAS.sgemm(
                                transposeA: .none, transposeB: .none, m: outChannels, n: (tap.end - tap.first) * width,
                                k: inChannels, alpha: 1,
                                a: UnsafeBufferPointer(rebasing: taps[(j * filterSize)...]), lda: inChannels,
                                b: UnsafeBufferPointer(rebasing: source[(n * inChannels * inputPlane + (tap.first + tap.offset) * width)...]),
                                ldb: inputPlane, beta: 1,
                                c: UnsafeMutableBufferPointer(rebasing: sampleOutput[(tap.first * width)...]), ldc: plane)
                        }
                    }
                }
            }
        }
    }

    /// The backward pass of ``forwardByTaps(_:into:chunks:_:)``: per sample and tap,
    /// `∂W[:, :, j] += ∂Y[n, :, first..<end] · x[n, :, first + offset..<end + offset]ᵀ` (each worker
    /// into its own `[kernelSize, outChannels, inChannels]` share, added to `∂W` in worker order)
    /// and `∂x[n, :, first + offset..<end + offset] += W[:, :, j]ᵀ · ∂Y[n, :, first..<end]`.
    private func backwardByTaps(_ gradOutput: Tensor, into gradInput: inout Tensor, chunks: [Range<Int>], _ geometry: Geometry) {
        let (plane, inputPlane, width) = (geometry.outPlane, geometry.inPlane, geometry.width)
        let taps = currentTapWeights()
        let filterSize = outChannels * inChannels
        var workers = 1
        input.withUnsafeBufferPointer { source in
            gradOutput.withUnsafeBufferPointer { g in
                gradInput.withUnsafeMutableBufferPointer { dx in
                    workers = forEachWorker(chunks) { _, _, scratch, chunks in
                        let share = scratch.gradWeight.buffer(count: kernelSize * filterSize)
                        share.update(repeating: 0)
                        for n in chunks.joined() {
                            let sampleGradient = UnsafeMutableBufferPointer(
                                rebasing: dx[(n * inChannels * inputPlane)..<((n + 1) * inChannels * inputPlane)])
                            sampleGradient.update(repeating: 0)
                            for j in 0..<kernelSize {
                                let tap = self.taps(j, geometry)
                                guard tap.end > tap.first else { continue }
                                let columns = (tap.end - tap.first) * width
                                let gradRows = UnsafeBufferPointer(rebasing: g[(n * outChannels * plane + tap.first * width)...])
                                let shifted = n * inChannels * inputPlane + (tap.first + tap.offset) * width
                                BLAS.sgemm(
                                    transposeA: .none, transposeB: .transpose, m: outChannels, n: inChannels, k: columns,
                                    alpha: 1, a: gradRows, lda: plane,
                                    b: UnsafeBufferPointer(rebasing: source[shifted...]), ldb: inputPlane, beta: 1,
                                    c: UnsafeMutableBufferPointer(rebasing: share[(j * filterSize)...]), ldc: inChannels)
                                BLAS.sgemm(
                                    transposeA: .transpose, transposeB: .none, m: inChannels, n: columns, k: outChannels,
                                    alpha: 1, a: UnsafeBufferPointer(rebasing: taps[(j * filterSize)...]), lda: inChannels,
                                    b: gradRows, ldb: plane, beta: 1,
                                    c: UnsafeMutableBufferPointer(rebasing: dx[shifted...]), ldc: inputPlane)
                            }
                        }
                    }
                }
            }
        }
        // The workers' shares, `[kernelSize, outChannels, inChannels]`, added to ∂W `[outChannels, inChannels, kernelSize]` in worker order.
        weight.gradient.withUnsafeMutableBufferPointer { dw in
            for worker in 0..<workers {
                let share = scratch[worker].gradWeight.buffer(count: kernelSize * filterSize)
                for o in 0..<outChannels {
                    for c in 0..<inChannels {
                        for j in 0..<kernelSize {
                            dw[(o * inChannels + c) * kernelSize + j] += share[(j * outChannels + o) * inChannels + c]
                        }
                    }
                }
            }
        }
    }

    /// The scratch memory of one worker thread.
    private final class ChunkScratch {
        /// The patch matrix of one chunk of samples, `[inChannels·k, B·T_out·V]`.
        let columns = Workspace()
        /// The gradient of one chunk's patch matrix, `[inChannels·k, B·T_out·V]`.
        let gradColumns = Workspace()
        /// One chunk's output or output gradient, `[outChannels, B·T_out·V]`, when `B > 1`.
        let product = Workspace()
        /// The worker's share of `∂W`: `[outChannels, inChannels·k]` with several workers, or
        /// `[k, outChannels, inChannels]` when computed tap by tap.
        let gradWeight = Workspace()
    }

    /// The batch split into consecutive chunks of balanced sizes whose patch matrices fit
    /// ``patchBudget``, their number a multiple of ``ComputeThreads/count`` (at most one chunk a
    /// sample), so that every worker gets the same share: a budget of 30 samples splits a batch
    /// of 32 into 16 and 16, not into 30 and 2.
    private func chunks(_ geometry: Geometry) -> [Range<Int>] {
        let batch = geometry.batch
        let perSample = max(1, inChannels * kernelSize * geometry.outPlane)
        let size = max(1, min(batch, patchBudget / perSample))
        let threads = max(1, min(ComputeThreads.count, batch))
        let needed = (batch + size - 1) / size
        let count = min(batch, (needed + threads - 1) / threads * threads)
        return (0..<count).map { (($0 * batch) / count)..<((($0 + 1) * batch) / count) }
    }

    /// Whether the patches of a sample are the sample itself (`k = 1`, `s = 1`, `p = 0`).
    private func isPointwise(_ geometry: Geometry) -> Bool {
        kernelSize == 1 && stride == 1 && padding == 0 && geometry.outLength == geometry.length
    }

    /// Calls `body(chunkRow, batchRow)` for the start of every `plane`-long row of a chunk's
    /// `[outChannels, B·plane]` matrix and of the same row in the batch's `[N, outChannels, plane]`.
    @inline(__always)
    private func forEachRow(samples: Range<Int>, plane: Int, _ body: (_ chunkRow: Int, _ batchRow: Int) -> Void) {
        for (local, n) in samples.enumerated() {
            for o in 0..<outChannels {
                body(o * samples.count * plane + local * plane, (n * outChannels + o) * plane)
            }
        }
    }

    /// Copies a chunk's `[outChannels, B·plane]` output into the batch's `[N, outChannels, plane]`.
    private func scatter(
        _ chunk: UnsafeBufferPointer<Float>, into batch: UnsafeMutableBufferPointer<Float>, samples: Range<Int>, plane: Int
    ) {
        forEachRow(samples: samples, plane: plane) { chunkRow, batchRow in
            _ = UnsafeMutableBufferPointer(rebasing: batch[batchRow..<(batchRow + plane)])
                .update(fromContentsOf: chunk[chunkRow..<(chunkRow + plane)])
        }
    }

    /// Copies the chunk's rows of the batch's `[N, outChannels, plane]` into `[outChannels, B·plane]`.
    private func gather(
        _ batch: UnsafeBufferPointer<Float>, into chunk: UnsafeMutableBufferPointer<Float>, samples: Range<Int>, plane: Int
    ) {
        forEachRow(samples: samples, plane: plane) { chunkRow, batchRow in
            _ = UnsafeMutableBufferPointer(rebasing: chunk[chunkRow..<(chunkRow + plane)])
                .update(fromContentsOf: batch[batchRow..<(batchRow + plane)])
        }
    }

    /// The extents of one forward call: `[N, C, T]` is treated as `[N, C, T, 1]`.
    private struct Geometry {
        let batch: Int
        let length: Int
        let width: Int
        let outLength: Int
        let isRank4: Bool

        init(_ shape: [Int], outLength: Int) {
            batch = shape[0]
            length = shape[2]
            width = shape.count == 4 ? shape[3] : 1
            isRank4 = shape.count == 4
            self.outLength = outLength
        }

        /// Values of one output channel of one sample, `T_out·V`.
        var outPlane: Int { outLength * width }
        /// Values of one input channel of one sample, `T·V`.
        var inPlane: Int { length * width }

        func outputShape(_ channels: Int) -> [Int] {
            isRank4 ? [batch, channels, outLength, width] : [batch, channels, outLength]
        }
    }

    /// The patch matrix `[inChannels·k, B·T_out·V]` of a chunk of `B` samples and its row stride:
    /// the sample itself for a pointwise convolution of one sample, else the layer's workspace
    /// filled by im2col.
    ///
    /// Row `c·k + j`, column `b·T_out·V + t·V + v` holds `x[n₀ + b, c, t·s − p + j·d, v]`, or 0
    /// where that frame is padding. The buffer stays valid until the next call with the same
    /// workspace (it points into `columns`, or into `source`).
    private func withPatches(
        of source: UnsafeBufferPointer<Float>, samples: Range<Int>, _ geometry: Geometry, into columns: Workspace
    ) -> (buffer: UnsafeBufferPointer<Float>, stride: Int) {
        let (plane, inputPlane, width) = (geometry.outPlane, geometry.inPlane, geometry.width)
        let sampleSize = inChannels * inputPlane
        if isPointwise(geometry), samples.count == 1 {
            let start = samples.lowerBound * sampleSize
            return (UnsafeBufferPointer(rebasing: source[start..<(start + sampleSize)]), inputPlane)
        }
        let rowLength = samples.count * plane
        let patches = columns.buffer(count: inChannels * kernelSize * rowLength)
        for (local, n) in samples.enumerated() {
            for c in 0..<inChannels {
                let channel = n * sampleSize + c * inputPlane
                for j in 0..<kernelSize {
                    let tap = taps(j, geometry)
                    let row = (c * kernelSize + j) * rowLength + local * plane
                    patches[row..<(row + tap.first * width)].update(repeating: 0)
                    if stride == 1 {
                        // A tap that reads only padding (count 0) may start past the input's end.
                        let from = channel + (tap.first + tap.offset) * width
                        let count = (tap.end - tap.first) * width
                        let target = row + tap.first * width
                        if count > 0 {
                            _ = UnsafeMutableBufferPointer(rebasing: patches[target..<(target + count)])
                                .update(fromContentsOf: source[from..<(from + count)])
                        }
                    } else {
                        for t in tap.first..<tap.end {
                            let (from, target) = (channel + (t * stride + tap.offset) * width, row + t * width)
                            for v in 0..<width { patches[target + v] = source[from + v] }
                        }
                    }
                    patches[(row + tap.end * width)..<(row + plane)].update(repeating: 0)
                }
            }
        }
        return (UnsafeBufferPointer(patches), rowLength)
    }

    /// Writes into the input gradient `[B, inChannels, T·V]` of a chunk of `B` samples the sum of
    /// its patch gradient `[inChannels·k, B·T_out·V]` along the patch map (col2im): the adjoint of
    /// ``withPatches(of:samples:_:into:)``.
    private func scatterPatches(
        _ gradPatches: UnsafeBufferPointer<Float>, into gradInput: UnsafeMutableBufferPointer<Float>,
        samples: Int, _ geometry: Geometry
    ) {
        let (plane, inputPlane, width) = (geometry.outPlane, geometry.inPlane, geometry.width)
        let rowLength = samples * plane
        gradInput.update(repeating: 0)
        guard let gradPatchesStart = gradPatches.baseAddress, let gradInputStart = gradInput.baseAddress else { return }
        for local in 0..<samples {
            for c in 0..<inChannels {
                let channel = (local * inChannels + c) * inputPlane
                for j in 0..<kernelSize {
                    let tap = taps(j, geometry)
                    let row = (c * kernelSize + j) * rowLength + local * plane
                    if stride == 1 {
                        let target = channel + (tap.first + tap.offset) * width
                        let source = row + tap.first * width
                        VectorKernels.add(
                            gradPatchesStart + source, to: gradInputStart + target, count: (tap.end - tap.first) * width)
                    } else {
                        for t in tap.first..<tap.end {
                            let (target, source) = (channel + (t * stride + tap.offset) * width, row + t * width)
                            for v in 0..<width { gradInput[target + v] += gradPatches[source + v] }
                        }
                    }
                }
            }
        }
    }

    /// The output frames `first..<end` whose tap `j` reads a real (non-padding) input frame, and
    /// the tap's offset `j·d − p`: output frame `t` reads input frame `t·s + offset`.
    @inline(__always)
    private func taps(_ j: Int, _ geometry: Geometry) -> (first: Int, end: Int, offset: Int) {
        let offset = j * dilation - padding
        // first: the smallest t with t·s + offset >= 0; end: one past the largest t with t·s + offset < T.
        let first = offset >= 0 ? 0 : (-offset + stride - 1) / stride
        let last = geometry.length - 1 - offset
        let end = last < 0 ? 0 : min(geometry.outLength, last / stride + 1)
        return (min(first, end), end, offset)
    }
}
