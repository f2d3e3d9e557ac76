import Dispatch
import Foundation
import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// Work split between ``ComputeThreads``: the same function at every thread count, every bit
/// reproduced at a given count.
@Suite struct ComputeThreadsTests {
    /// A large `sgemm` split by columns (C wider than tall) or by rows (taller than wide), with
    /// every combination of transposes, equals the naive product at 1, 2 and 3 threads, and is the
    /// same bits at every count (``BLAS`` computes it in blocks fixed by its shape: OpenBLAS's
    /// Haswell and Zen kernels round a column differently in calls of different widths).
    @Test(arguments: [(96, 700), (700, 96)])
    func splitProductEqualsNaiveProduct(rows: Int, columns: Int) {
        let depth = 40
        for transposeA in BLAS.Transpose.allCases {
            for transposeB in BLAS.Transpose.allCases {
                let a = randomTensor(transposeA == .none ? [rows, depth] : [depth, rows], seed: 81)
                let b = randomTensor(transposeB == .none ? [depth, columns] : [columns, depth], seed: 82)
                var expected = [Double](repeating: 0, count: rows * columns)
                for i in 0..<rows {
                    for j in 0..<columns {
                        var total = 0.0
                        for p in 0..<depth {
                            let left = transposeA == .none ? a.values[i * depth + p] : a.values[p * rows + i]
                            let right = transposeB == .none ? b.values[p * columns + j] : b.values[j * depth + p]
                            total += Double(left) * Double(right)
                        }
                        expected[i * columns + j] = total
                    }
                }
                let oneThread = BLAS.matmul(a, b, transposeA: transposeA, transposeB: transposeB)
                for threads in 1...3 {
                    let product = ComputeThreads.withCount(threads) {
                        BLAS.matmul(a, b, transposeA: transposeA, transposeB: transposeB)
                    }
                    let differing = zip(product.values, oneThread.values).filter { $0.bitPattern != $1.bitPattern }.count
                    #expect(differing == 0, "\(rows)×\(columns), \(transposeA)/\(transposeB), \(threads) threads: \(differing) elements differ from 1 thread's")
                    expectClose(product.values, expected.map(Float.init), relative: 1e-5, absolute: 1e-5,
                                "\(rows)×\(columns), \(transposeA)/\(transposeB), \(threads) threads")
                }
            }
        }
    }

    /// `withCount` applies to its body only and nests; the process-wide default stays 1.
    @Test func scopedCountDoesNotLeak() {
        #expect(ComputeThreads.count == 1)
        ComputeThreads.withCount(3) {
            #expect(ComputeThreads.count == 3)
            ComputeThreads.withCount(2) { #expect(ComputeThreads.count == 2) }
            #expect(ComputeThreads.count == 3)
        }
        #expect(ComputeThreads.count == 1)
    }

    /// One training step of `stgcn-small` and of `ctrgcn-small` (batch 16, 60 frames, Vision-18
    /// graph) at 2 and 3 threads against 1 thread's: a second run at the same count reproduces
    /// every bit, and the logits agree within rounding. Every gradient agrees within rounding
    /// element by element for `stgcn-small`; for `ctrgcn-small` in norm, within 10 %.
    ///
    /// The temporal convolutions group their sums by thread count (``TemporalConvolution``), so
    /// the last bits differ. CTR-GCN's max branch pools the output of a ReLU, whose windows often
    /// hold exact zeros; where the last bits turn a value near zero into a tiny positive one (or
    /// back), another frame wins the window and the window's whole gradient moves to it (max
    /// pooling's subgradient): we take this to be why its gradients move more. On OpenBLAS's Zen
    /// kernel the input gradient moved by up to 1.5e-3 of 0.09 (relative norm 2.1e-3 at 3 threads)
    /// and one parameter's gradient by 4 % in norm, where `stgcn-small`, without max pooling, stays
    /// within 5e-7 in norm. A part lost or run twice would change a gradient by tens
    /// of percent; the same-count check catches races.
    @Test(arguments: ["stgcn-small", "ctrgcn-small"])
    func trainingStepAgreesAcrossThreadCounts(family: String) throws {
        let graph = GraphLayerTests.vision18Graph()
        func model() throws -> any Layer {
            if family == "ctrgcn-small" {
                return try CTRGCNNetwork(
                    configuration: .init(channelCount: 3, graph: graph, classCount: 4, blocks: CTRGCNNetwork.Preset.ctrgcnSmall.blocks),
                    seed: 85)
            }
            return try SpatialTemporalGraphConvolutionalNetwork(
                configuration: .init(channelCount: 3, graph: graph, classCount: 4,
                                     blocks: SpatialTemporalGraphConvolutionalNetwork.Preset.stgcnSmall.blocks),
                seed: 85)
        }
        let input = randomTensor([16, 54, 60], seed: 83)
        let gradLogits = randomTensor([16, 4], seed: 84)
        func step(threads: Int) throws -> [[Float]] {
            let model = try model()
            return ComputeThreads.withCount(threads) {
                let logits = model.forward(input, training: true)
                let gradInput = model.backward(gradLogits)
                return [logits.values, gradInput.values] + model.parameters.map(\.gradient.values)
            }
        }
        let single = try step(threads: 1)
        for threads in [2, 3] {
            let parallel = try step(threads: threads)
            #expect(parallel.count == single.count)
            for (index, (actual, expected)) in zip(parallel, single).enumerated() {
                if family == "stgcn-small" || index == 0 {
                    expectClose(actual, expected, relative: 1e-4, absolute: 1e-5, "tensor \(index), \(threads) threads")
                } else {
                    let difference = zip(actual, expected).reduce(0.0) { $0 + Double($1.0 - $1.1) * Double($1.0 - $1.1) }.squareRoot()
                    let size = expected.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
                    #expect(difference <= 0.1 * size + 1e-5 * Double(expected.count).squareRoot(),
                            "tensor \(index), \(threads) threads: |difference| \(difference) against |gradient| \(size)")
                }
            }
            let again = try step(threads: threads)
            #expect(again.map { $0.map(\.bitPattern) } == parallel.map { $0.map(\.bitPattern) })
        }
    }

    /// Thousands of back-to-back parallel regions (a 2¹⁷-element sum splits in two at 2 threads,
    /// in three at 3) run every part exactly once: a part lost or run twice would leave an element
    /// that differs from the one-thread result.
    @Test(arguments: [2, 3])
    func everyPartOfManyShortRegionsRunsOnce(threads: Int) {
        let increment = randomTensor([1 << 17], seed: 86)
        func accumulate(threads: Int) -> [Float] {
            var total = Tensor(zeros: [1 << 17])
            ComputeThreads.withCount(threads) {
                for _ in 0..<2_000 { total.add(increment) }
            }
            return total.values
        }
        let expected = accumulate(threads: 1)
        let actual = accumulate(threads: threads)
        #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    /// Four threads that each run a training step of `ctrgcn-small` at 2 threads at the same time
    /// (one holds the spinning workers per region, the others fall back to Dispatch) reproduce
    /// every bit of the step run alone.
    @Test func concurrentOperationsReproduceTheStepRunAlone() throws {
        let graph = GraphLayerTests.vision18Graph()
        let input = randomTensor([8, 54, 30], seed: 87)
        let gradLogits = randomTensor([8, 4], seed: 88)
        @Sendable func step() throws -> [[Float]] {
            let model = try CTRGCNNetwork(
                configuration: .init(channelCount: 3, graph: graph, classCount: 4, blocks: CTRGCNNetwork.Preset.ctrgcnSmall.blocks),
                seed: 89)
            return ComputeThreads.withCount(2) {
                let logits = model.forward(input, training: true)
                let gradInput = model.backward(gradLogits)
                return [logits.values, gradInput.values] + model.parameters.map(\.gradient.values)
            }
        }
        let alone = try step().map { $0.map(\.bitPattern) }
        let results = ConcurrentResults(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            results.set(index, Result { try step().map { $0.map(\.bitPattern) } })
        }
        for (index, result) in results.values.enumerated() {
            let bits = try #require(try result?.get(), "thread \(index) returned nothing")
            #expect(bits == alone, "thread \(index)")
        }
    }
}

extension ComputeThreadsTests {
    /// A training step of `ctrgcn-small` at 2 threads gives the same bits under both wait
    /// policies (the spinning workers, Dispatch's pool): the policy changes who runs a part, never
    /// what it computes.
    @Test func waitPoliciesGiveTheSameBits() throws {
        let graph = GraphLayerTests.vision18Graph()
        let input = randomTensor([8, 54, 30], seed: 90)
        let gradLogits = randomTensor([8, 4], seed: 91)
        func step(_ policy: ComputeThreads.WaitPolicy) throws -> [[UInt32]] {
            let model = try CTRGCNNetwork(
                configuration: .init(channelCount: 3, graph: graph, classCount: 4, blocks: CTRGCNNetwork.Preset.ctrgcnSmall.blocks),
                seed: 92)
            let previous = ComputeThreads.waitPolicy
            ComputeThreads.waitPolicy = policy
            defer { ComputeThreads.waitPolicy = previous }
            return ComputeThreads.withCount(2) {
                let logits = model.forward(input, training: true)
                let gradInput = model.backward(gradLogits)
                return ([logits.values, gradInput.values] + model.parameters.map(\.gradient.values)).map { $0.map(\.bitPattern) }
            }
        }
        #expect(try step(.passive) == step(.active))
        #expect(ComputeThreads.waitPolicy == .active)
    }
}

/// The results of ``ComputeThreadsTests/concurrentOperationsReproduceTheStepRunAlone()``'s threads.
private final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<[[UInt32]], any Error>?]

    init(count: Int) { stored = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<[[UInt32]], any Error>) { lock.withLock { stored[index] = result } }

    var values: [Result<[[UInt32]], any Error>?] { lock.withLock { stored } }
}
