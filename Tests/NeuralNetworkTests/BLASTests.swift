import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

@Suite struct BLASTests {
    /// `sgemm` against a naive triple loop in `Double` on random matrices with non-trivial
    /// leading dimensions; tolerance 1e-5 relative (Float rounding of a 7-term dot product).
    @Test(arguments: BLAS.Transpose.allCases, BLAS.Transpose.allCases)
    func sgemmMatchesNaiveProduct(transposeA: BLAS.Transpose, transposeB: BLAS.Transpose) {
        let (m, n, k) = (5, 4, 7)
        let (alpha, beta): (Float, Float) = (0.75, -0.5)
        let (rowsA, columnsA) = transposeA == .none ? (m, k) : (k, m)
        let (rowsB, columnsB) = transposeB == .none ? (k, n) : (n, k)
        let (lda, ldb, ldc) = (columnsA + 2, columnsB + 1, n + 3)
        let a = randomTensor([rowsA * lda], seed: 1).values
        let b = randomTensor([rowsB * ldb], seed: 2).values
        var c = randomTensor([m * ldc], seed: 3).values
        var expected = c
        for i in 0..<m {
            for j in 0..<n {
                var total = 0.0
                for p in 0..<k {
                    let aValue = transposeA == .none ? a[i * lda + p] : a[p * lda + i]
                    let bValue = transposeB == .none ? b[p * ldb + j] : b[j * ldb + p]
                    total += Double(aValue) * Double(bValue)
                }
                expected[i * ldc + j] = Float(Double(alpha) * total + Double(beta) * Double(c[i * ldc + j]))
            }
        }
        a.withUnsafeBufferPointer { aBuffer in
            b.withUnsafeBufferPointer { bBuffer in
                c.withUnsafeMutableBufferPointer { cBuffer in
                    BLAS.sgemm(transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k,
                               alpha: alpha, a: aBuffer, lda: lda, b: bBuffer, ldb: ldb,
                               beta: beta, c: cBuffer, ldc: ldc)
                }
            }
        }
        expectClose(c, expected, relative: 1e-5, absolute: 1e-6, "C")
    }

    /// A worked example: [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
    @Test func matmulWorkedExample() {
        let a = Tensor(shape: [2, 2], values: [1, 2, 3, 4])
        let b = Tensor(shape: [2, 2], values: [5, 6, 7, 8])
        #expect(BLAS.matmul(a, b).values == [19, 22, 43, 50])
        #expect(BLAS.matmul(a, b, transposeA: .transpose).values == [26, 30, 38, 44])
        #expect(BLAS.matmul(a, b, transposeB: .transpose).values == [17, 23, 39, 53])
    }

    @Test func singleThreadedByDefaultAndProvenance() {
        #expect(BLAS.openBLASThreadCount == 1)
        #expect(ComputeThreads.count == 1)
        #expect(!BLAS.coreName.isEmpty)
        #expect(BLAS.configuration.contains("OpenBLAS"))
    }
}
