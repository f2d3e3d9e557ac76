import COpenBLAS

/// The OpenBLAS routines ActionLab uses, and OpenBLAS's threading and build information.
///
/// This is the only file that imports `COpenBLAS`. OpenBLAS runs single-threaded unless
/// ``threadCount`` is set: the first BLAS call (or the first read or write of ``threadCount``)
/// sets the thread count to 1, so that results do not depend on how work is split between
/// threads, and one training trial uses one core (DESIGN.md: "one thread per trial").
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
    private static let singleThreadedByDefault: Void = {
        openblas_set_num_threads(1)
    }()

    /// The number of threads OpenBLAS uses for one call (`openblas_get_num_threads`);
    /// 1 unless changed. Setting it calls `openblas_set_num_threads`, which is process-wide.
    public static var threadCount: Int {
        get {
            _ = singleThreadedByDefault
            return Int(openblas_get_num_threads())
        }
        set {
            precondition(newValue >= 1, "BLAS.threadCount must be at least 1, got \(newValue)")
            _ = singleThreadedByDefault
            openblas_set_num_threads(Int32(newValue))
        }
    }

    /// Runs `body` with OpenBLAS set to `count` threads per call, then restores ``threadCount``.
    ///
    /// Layers that split a batch between their own worker threads use `count = 1`, so that each
    /// worker's calls run on that worker alone rather than competing for OpenBLAS's threads.
    ///
    /// - Parameters:
    ///   - count: Threads per BLAS call inside `body`, at least 1.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    public static func withThreadCount<R>(_ count: Int, _ body: () throws -> R) rethrows -> R {
        let previous = threadCount
        guard previous != count else { return try body() }
        threadCount = count
        defer { threadCount = previous }
        return try body()
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
        cblas_sgemm(
            CblasRowMajor, transposeA.cblas, transposeB.cblas,
            Int32(m), Int32(n), Int32(k),
            alpha, a.baseAddress, Int32(lda),
            b.baseAddress, Int32(ldb),
            beta, c.baseAddress, Int32(ldc))
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
