internal import COpenBLAS

/// The OpenBLAS routines ActionLab uses, and OpenBLAS's threading and build information.
///
/// This is the only file that imports `COpenBLAS`. OpenBLAS always runs single-threaded: the
/// first BLAS call sets its thread count to 1. ``sgemm`` computes a large product in column (or
/// row) blocks fixed by its shape, each by a single-threaded OpenBLAS call, shared out between
/// ``ComputeThreads``; layers split smaller products by sample themselves.
public enum BLAS {
    /// Whether a matrix operand is used as stored or transposed.
    public enum Transpose: Sendable, Hashable, CaseIterable {
        /// Use the matrix as stored (`CblasNoTrans`).
        case none
        /// Use the transpose of the stored matrix (`CblasTrans`).
        case transpose

        var cblas: CBLAS_TRANSPOSE { self == .none ? CblasNoTrans : CblasTrans }
    }

    /// Sets OpenBLAS to one thread the first time BLAS is touched (`swift_once` makes it race-free).
    ///
    /// OpenBLAS's own threads spin for a while after each call, taking the core that ActionLab's
    /// next parallel step needs, and split the small products of a graph model poorly; ActionLab
    /// splits work between threads itself (``ComputeThreads``). The same first call keeps freed
    /// tensors' memory in the heap (``HeapRetention``).
    private static let singleThreadedByDefault: Void = {
        openblas_set_num_threads(1)
        _ = actionlab_retain_freed_heap(HeapRetention.mmapThreshold, HeapRetention.trimThreshold)
    }()

    /// Threads OpenBLAS uses for one call (`openblas_get_num_threads`): always 1.
    public static var openBLASThreadCount: Int {
        _ = singleThreadedByDefault
        return Int(openblas_get_num_threads())
    }

    /// The CPU kernel OpenBLAS selected at run time (`openblas_get_corename`), e.g. `"Haswell"`;
    /// recorded with a run's provenance because kernels may round differently.
    public static var coreName: String {
        openblas_get_corename().map { String(cString: $0) } ?? "unknown"
    }

    /// OpenBLAS's build configuration string (`openblas_get_config`), e.g.
    /// `"OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"`.
    public static var configuration: String {
        openblas_get_config().map { String(cString: $0) } ?? "unknown"
    }

    /// Computes `C = alpha * op(A) * op(B) + beta * C` on row-major matrices (`cblas_sgemm`).
    ///
    /// `op(A)` is `[m, k]`, `op(B)` is `[k, n]` and `C` is `[m, n]`. When `beta` is 0, `C`'s
    /// prior contents are ignored (they may be uninitialized or NaN), as the BLAS reference states.
    ///
    /// - Parameters:
    ///   - transposeA: Whether `A` is stored as `[m, k]` (`.none`) or `[k, m]` (`.transpose`).
    ///   - transposeB: Whether `B` is stored as `[k, n]` (`.none`) or `[n, k]` (`.transpose`).
    ///   - m: Rows of `op(A)` and `C`.
    ///   - n: Columns of `op(B)` and `C`.
    ///   - k: Columns of `op(A)`, rows of `op(B)`.
    ///   - alpha: Scale of the product.
    ///   - a: Storage of `A`; its leading dimension (row stride) is `lda`.
    ///   - lda: Row stride of `A`: at least `k` when not transposed, else at least `m`.
    ///   - b: Storage of `B`; its leading dimension is `ldb`.
    ///   - ldb: Row stride of `B`: at least `n` when not transposed, else at least `k`.
    ///   - beta: Scale of the prior contents of `C`.
    ///   - c: Storage of `C`, overwritten with the result.
    ///   - ldc: Row stride of `C`, at least `n`.
    public static func sgemm(
        transposeA: Transpose, transposeB: Transpose,
        m: Int, n: Int, k: Int,
        alpha: Float,
        a: UnsafeBufferPointer<Float>, lda: Int,
        b: UnsafeBufferPointer<Float>, ldb: Int,
        beta: Float,
        c: UnsafeMutableBufferPointer<Float>, ldc: Int
    ) {
        precondition(m >= 0 && n >= 0 && k >= 0, "sgemm: negative size m=\(m) n=\(n) k=\(k)")
        guard m > 0, n > 0 else { return }
        let (rowsA, columnsA) = transposeA == .none ? (m, k) : (k, m)
        let (rowsB, columnsB) = transposeB == .none ? (k, n) : (n, k)
        precondition(lda >= max(1, columnsA) && ldb >= max(1, columnsB) && ldc >= n,
                     "sgemm: leading dimension too small")
        precondition(rowsA == 0 || a.count >= (rowsA - 1) * lda + columnsA, "sgemm: A is too small")
        precondition(rowsB == 0 || b.count >= (rowsB - 1) * ldb + columnsB, "sgemm: B is too small")
        precondition(c.count >= (m - 1) * ldc + n, "sgemm: C is too small")
        _ = singleThreadedByDefault
        guard k > 0 else {
            // op(A) * op(B) is the zero matrix; BLAS would still scale C by beta.
            for row in 0..<m {
                for column in 0..<n {
                    let index = row * ldc + column
                    c[index] = beta == 0 ? 0 : beta * c[index]
                }
            }
            return
        }
        guard let aStart = a.baseAddress, let bStart = b.baseAddress, let cStart = c.baseAddress else { return }
        // Blocks of C: columns (offsetting op(B) and C by whole columns) when C is at least as
        // wide as tall, else rows (offsetting op(A) and C by whole rows). Each element is still
        // one OpenBLAS call's dot product over all of k.
        let splitColumns = n >= m
        func multiply(_ block: Range<Int>) {
            let count = Int32(block.count)
            if splitColumns {
                let bOffset = transposeB == .none ? block.lowerBound : block.lowerBound * ldb
                cblas_sgemm(
                    CblasRowMajor, transposeA.cblas, transposeB.cblas, Int32(m), count, Int32(k),
                    alpha, aStart, Int32(lda), bStart + bOffset, Int32(ldb),
                    beta, cStart + block.lowerBound, Int32(ldc))
            } else {
                let aOffset = transposeA == .none ? block.lowerBound * lda : block.lowerBound
                cblas_sgemm(
                    CblasRowMajor, transposeA.cblas, transposeB.cblas, count, Int32(n), Int32(k),
                    alpha, aStart + aOffset, Int32(lda), bStart, Int32(ldb),
                    beta, cStart + block.lowerBound * ldc, Int32(ldc))
            }
        }
        let extent = splitColumns ? n : m
        // The common case (small products) goes straight to OpenBLAS: the graph convolution makes
        // thousands of small calls per training step.
        guard 2 * m * n * k >= parallelFlopThreshold else {
            multiply(0..<extent)
            return
        }
        // A large product is computed in the same blocks whatever the thread count, one OpenBLAS
        // call each; the threads share out whole blocks.
        let blocks = Self.blocks(of: extent)
        ComputeThreads.forEachPart(of: blocks.count) { _, range in
            for block in blocks[range] { multiply(block) }
        }
    }

    /// Products below this many floating-point operations (`2·m·n·k`, about 50 µs of one core)
    /// are one OpenBLAS call on the calling thread even with several ``ComputeThreads``: starting
    /// a second thread would cost more than it saves.
    static let parallelFlopThreshold = 4_000_000

    /// The blocks of columns (or rows) of `C` a product of at least ``parallelFlopThreshold``
    /// operations is computed in: 1, 2 or 4 of them, each at least 256 wide where `extent`
    /// allows, every bound but the last a multiple of 16. Each block repacks the operand all
    /// blocks share, so more of them cost more on one thread (with at most 16 blocks of 128,
    /// `stgcn-small` trained 4–7 % slower on 2 threads); beyond 4 threads a large product's blocks
    /// no longer go round, while the layers' split by sample still does.
    ///
    /// They depend on `extent` alone, not on ``ComputeThreads/count``, because an OpenBLAS call's
    /// result for one column can depend on the other columns of the call: the Haswell and Zen
    /// `sgemm` kernels of OpenBLAS 0.3.21 group a column's sum differently by where it falls in
    /// the call's blocking (a `[64, 64] × [64, 1080]` product computed as columns `0..<512` and
    /// `512..<1080` differs from the single call in 2,017 of its 69,120 elements on an AMD Zen 1
    /// and in 2,362 on a Zen 3; with the Sandybridge and Prescott kernels in none; the SkylakeX
    /// kernel was not checked this way). Blocks fixed by the shape make a product the same bits
    /// on any number of threads, whichever kernel computes it.
    ///
    /// - Parameter extent: The columns (or rows) of `C`.
    /// - Returns: Consecutive ranges covering `0..<extent`, in order.
    static func blocks(of extent: Int) -> [Range<Int>] {
        var count = 1
        while count < 4, extent / (2 * count) >= 256 { count *= 2 }
        return ComputeThreads.ranges(of: extent, count: count, alignment: 16)
    }

    /// Returns the matrix product `op(a) * op(b)` of two rank-2 tensors.
    ///
    /// - Parameters:
    ///   - a: A `[m, k]` tensor, or `[k, m]` when `transposeA` is `.transpose`.
    ///   - b: A `[k, n]` tensor, or `[n, k]` when `transposeB` is `.transpose`.
    ///   - transposeA: Whether to use the transpose of `a`.
    ///   - transposeB: Whether to use the transpose of `b`.
    /// - Returns: The `[m, n]` product.
    public static func matmul(
        _ a: Tensor, _ b: Tensor,
        transposeA: Transpose = .none, transposeB: Transpose = .none
    ) -> Tensor {
        precondition(a.rank == 2 && b.rank == 2, "matmul needs rank-2 tensors, got \(a.shape) and \(b.shape)")
        let (m, k) = transposeA == .none ? (a.shape[0], a.shape[1]) : (a.shape[1], a.shape[0])
        let (kB, n) = transposeB == .none ? (b.shape[0], b.shape[1]) : (b.shape[1], b.shape[0])
        precondition(k == kB, "matmul: inner dimensions differ, \(a.shape) and \(b.shape)")
        var result = Tensor(zeros: [m, n])
        multiply(a, transposeA, b, transposeB, into: &result, m: m, n: n, k: k, beta: 0)
        return result
    }
}

/// `c = op(a) op(b) + beta c` for densely stored row-major rank-2 operands.
func multiply(
    _ a: Tensor, _ transposeA: BLAS.Transpose, _ b: Tensor, _ transposeB: BLAS.Transpose,
    into c: inout Tensor, m: Int, n: Int, k: Int, beta: Float
) {
    a.withUnsafeBufferPointer { aBuffer in
        b.withUnsafeBufferPointer { bBuffer in
            c.withUnsafeMutableBufferPointer { cBuffer in
                BLAS.sgemm(
                    transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1,
                    a: aBuffer, lda: max(1, transposeA == .none ? k : m),
                    b: bBuffer, ldb: max(1, transposeB == .none ? n : k),
                    beta: beta, c: cBuffer, ldc: max(1, n))
            }
        }
    }
}
