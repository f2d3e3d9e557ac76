import Randomness

extension BLAS {
    /// The largest relative error the start-up check accepts.
    ///
    /// The check's dot products have at most 97 terms of magnitude below 1; Float32 summation
    /// error is bounded by about `k · 2⁻²⁴ · Σ|aᵢbᵢ|` (Higham, "Accuracy and Stability of
    /// Numerical Algorithms", 2nd ed., §3.1), under 1e-5 relative to `Σ|aᵢbᵢ|`. A wrong kernel
    /// (bad instruction, wrong blocking) is off by far more.
    public static let kernelCheckTolerance = 1e-4

    /// The shapes `(m, n, k)` the check multiplies: odd sizes that leave remainders in every
    /// kernel's register blocking, and one larger than a typical micro-tile in every dimension.
    static let kernelCheckShapes = [(1, 1, 1), (3, 17, 5), (37, 29, 71), (67, 45, 97)]

    /// Multiplies small seeded matrices with ``sgemm(transposeA:transposeB:m:n:k:alpha:a:lda:b:ldb:beta:c:ldc:)``
    /// for every transpose combination and returns the largest error against a naive product.
    ///
    /// The error of an element is `|c − exact| / max(Σ|aᵢbᵢ|, 1e-30)`, `exact` being the
    /// product summed in `Double`. Takes well under a millisecond; run at start-up to catch a
    /// kernel that computes wrong results on this CPU.
    ///
    /// - Returns: The largest relative error; compare with ``kernelCheckTolerance``.
    public static func kernelCheckError() -> Double {
        var generator = SeededGenerator(seed: 0, purpose: "blas-kernel-check")
        var largest = 0.0
        for (m, n, k) in kernelCheckShapes {
            for transposeA in Transpose.allCases {
                for transposeB in Transpose.allCases {
                    let a = (0..<(m * k)).map { _ in generator.nextUniform(from: -1, to: 1) }
                    let b = (0..<(k * n)).map { _ in generator.nextUniform(from: -1, to: 1) }
                    var c = [Float](repeating: .nan, count: m * n)
                    let lda = transposeA == .none ? k : m
                    let ldb = transposeB == .none ? n : k
                    a.withUnsafeBufferPointer { aBuffer in
                        b.withUnsafeBufferPointer { bBuffer in
                            c.withUnsafeMutableBufferPointer { cBuffer in
                                sgemm(transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1,
                                      a: aBuffer, lda: lda, b: bBuffer, ldb: ldb, beta: 0, c: cBuffer, ldc: n)
                            }
                        }
                    }
                    for row in 0..<m {
                        for column in 0..<n {
                            var exact = 0.0
                            var magnitude = 0.0
                            for p in 0..<k {
                                let aValue = Double(transposeA == .none ? a[row * lda + p] : a[p * lda + row])
                                let bValue = Double(transposeB == .none ? b[p * ldb + column] : b[column * ldb + p])
                                exact += aValue * bValue
                                magnitude += abs(aValue * bValue)
                            }
                            let error = abs(Double(c[row * n + column]) - exact) / max(magnitude, 1e-30)
                            // NaN (an element never written) counts as a failure.
                            largest = error.isNaN ? .infinity : max(largest, error)
                        }
                    }
                }
            }
        }
        return largest
    }
}
