@testable import NeuralNetwork
import Testing

/// The one rule that splits work into consecutive ranges: by thread count
/// (``ComputeThreads/parts(of:minimumSize:alignment:)``) and by a product's shape (``BLAS/blocks(of:)``).
@Suite struct WorkSplitTests {
    /// Every item in exactly one range, in order; every inner bound on the alignment; no empty range.
    @Test(arguments: [(0, 3, 1), (1, 4, 1), (10, 3, 1), (10, 3, 4), (1080, 4, 16), (17, 8, 16), (100, 1, 16)])
    func rangesCoverEveryItemOnce(total: Int, count: Int, alignment: Int) {
        let ranges = ComputeThreads.ranges(of: total, count: count, alignment: alignment)
        #expect(ranges.count <= count)
        #expect(ranges.allSatisfy { !$0.isEmpty })
        #expect(ranges.flatMap { Array($0) } == Array(0..<total))
        #expect(ranges.dropLast().allSatisfy { $0.upperBound % alignment == 0 })
    }

    @Test func rangesAreEvenlySpaced() {
        #expect(ComputeThreads.ranges(of: 10, count: 3) == [0..<3, 3..<6, 6..<10])
        #expect(ComputeThreads.ranges(of: 1080, count: 4, alignment: 16) == [0..<256, 256..<528, 528..<800, 800..<1080])
        // Rounding down to the alignment leaves an empty range, which is dropped.
        #expect(ComputeThreads.ranges(of: 17, count: 2, alignment: 16) == [0..<17])
    }

    /// A large product's blocks: 1, 2 or 4, each at least 256 wide, whatever the thread count.
    @Test func productBlocksFollowTheShapeAlone() {
        #expect(BLAS.blocks(of: 511) == [0..<511])
        #expect(BLAS.blocks(of: 512) == [0..<256, 256..<512])
        #expect(BLAS.blocks(of: 1023) == [0..<496, 496..<1023])
        #expect(BLAS.blocks(of: 1080) == [0..<256, 256..<528, 528..<800, 800..<1080])
        #expect(BLAS.blocks(of: 100_000).count == 4)
        let oneThread = BLAS.blocks(of: 1080)
        for threads in 2...3 {
            #expect(ComputeThreads.withCount(threads) { BLAS.blocks(of: 1080) } == oneThread)
        }
    }

    /// As many parts as threads, each at least `minimumSize` items.
    @Test func partsFollowTheThreadCount() {
        #expect(ComputeThreads.parts(of: 10) == [0..<10])
        #expect(ComputeThreads.withCount(3) { ComputeThreads.parts(of: 10) } == [0..<3, 3..<6, 6..<10])
        #expect(ComputeThreads.withCount(3) { ComputeThreads.parts(of: 10, minimumSize: 4) } == [0..<5, 5..<10])
        #expect(ComputeThreads.withCount(2) { ComputeThreads.parts(of: 0) } == [])
    }
}
