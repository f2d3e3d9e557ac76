import NeuralNetwork
import Testing

@Suite struct TensorTests {
    @Test func zerosAndShape() {
        let tensor = Tensor(zeros: [2, 3, 4])
        #expect(tensor.count == 24)
        #expect(tensor.rank == 3)
        #expect(tensor.values.allSatisfy { $0 == 0 })
    }

    @Test func rowMajorSubscript() {
        var tensor = Tensor(shape: [2, 3], values: [0, 1, 2, 3, 4, 5])
        #expect(tensor[1, 2] == 5)
        #expect(tensor[0, 1] == 1)
        tensor[1, 0] = 9
        #expect(tensor.values == [0, 1, 2, 9, 4, 5])
        #expect(tensor.reshaped([3, 2])[1, 1] == 9)
    }

    /// Writing one element through `values` from another module (this test's) changes the
    /// storage in place: the buffer keeps its address, as it would not if the whole array were
    /// copied for each write (what a `didSet` observer on `values` did: quadratic time).
    @Test func elementWritesThroughValuesAreInPlace() {
        var tensor = Tensor(zeros: [4, 1000])
        let before = tensor.withUnsafeBufferPointer { $0.baseAddress }
        tensor.values[5] = 1
        tensor.values[3999] += 2
        let after = tensor.withUnsafeBufferPointer { $0.baseAddress }
        #expect(before == after)
        #expect(tensor.values[5] == 1 && tensor.values[3999] == 2 && tensor.values.reduce(0, +) == 3)
    }

    @Test func arithmetic() {
        let a = Tensor(shape: [3], values: [1, 2, 3])
        let b = Tensor(shape: [3], values: [0.5, -1, 4])
        #expect((a + b).values == [1.5, 1, 7])
        #expect((a - b).values == [0.5, 3, -1])
        #expect((a * 2).values == [2, 4, 6])
        #expect(a.sum() == 6)
    }
}
