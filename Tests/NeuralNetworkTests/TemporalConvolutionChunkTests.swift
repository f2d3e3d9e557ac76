import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// The temporal convolution computes a batch in chunks of samples (``TemporalConvolution/patchBudget``):
/// one sample per chunk (st-gcn's blocks), several, or the whole batch (a `tcn`) must give the
/// same function and gradients.
@Suite struct TemporalConvolutionChunkTests {
    /// Kernel size, stride, padding and input shape: rank 3 and rank 4, strided, the pointwise
    /// 1×1 case whose one-sample chunks multiply the input without im2col, and stride-1 rank-4
    /// cases whose one-sample chunks are computed tap by tap (with taps that read only padding
    /// at one end, and an output shorter than the input).
    static let cases: [(kernelSize: Int, stride: Int, padding: TemporalConvolution.Padding, shape: [Int])] = [
        (3, 1, .same, [3, 2, 7]),
        (9, 1, .same, [3, 2, 6, 4]),
        (5, 1, .explicit(1), [3, 2, 6, 4]),
        (5, 2, .same, [3, 2, 9, 4]),
        (1, 1, .explicit(0), [3, 2, 6, 4]),
        (1, 2, .explicit(0), [3, 2, 6, 4]),
    ]

    /// Finite-difference gradients with one sample per chunk.
    @Test(arguments: 0..<cases.count)
    func gradientsWithOneSamplePerChunk(index: Int) {
        let (kernelSize, stride, padding, shape) = Self.cases[index]
        var generator = SeededGenerator(seed: 60)
        let layer = TemporalConvolution(
            inChannels: shape[1], outChannels: 3, kernelSize: kernelSize, stride: stride, padding: padding, using: &generator)
        layer.patchBudget = 1
        checkGradients(of: layer, input: randomTensor(shape, seed: 61))
    }

    /// Outputs and every gradient agree between one sample, two samples and the whole batch per chunk.
    @Test(arguments: 0..<cases.count)
    func chunkSizesAgree(index: Int) {
        let (kernelSize, stride, padding, shape) = Self.cases[index]
        let x = randomTensor(shape, seed: 62)
        var results: [(output: Tensor, gradInput: Tensor, gradWeight: Tensor, gradBias: Tensor)] = []
        let patchesPerSample = shape[1] * kernelSize * ((shape[2] - 1) / stride + 1) * (shape.count == 4 ? shape[3] : 1)
        for budget in [1, 2 * patchesPerSample, TemporalConvolution.defaultPatchBudget] {
            var generator = SeededGenerator(seed: 63)
            let layer = TemporalConvolution(
                inChannels: shape[1], outChannels: 3, kernelSize: kernelSize, stride: stride, padding: padding, using: &generator)
            layer.patchBudget = budget
            let output = layer.forward(x, training: true)
            let gradInput = layer.backward(randomTensor(output.shape, seed: 64))
            results.append((output, gradInput, layer.weight.gradient, layer.bias?.gradient ?? Tensor(zeros: [0])))
        }
        for result in results.dropFirst() {
            expectClose(result.output.values, results[0].output.values, "output")
            expectClose(result.gradInput.values, results[0].gradInput.values, "input gradient")
            expectClose(result.gradWeight.values, results[0].gradWeight.values, "weight gradient")
            expectClose(result.gradBias.values, results[0].gradBias.values, "bias gradient")
        }
    }

    /// Several worker threads: outputs and input gradients equal one worker's bit for bit (each
    /// sample is computed alike), `∂W` agrees within rounding, and repeating a run with the same
    /// worker count reproduces every bit.
    @Test(arguments: 0..<cases.count)
    func workerCountsAgreeAndAreDeterministic(index: Int) {
        let (kernelSize, stride, padding, shape) = Self.cases[index]
        let x = randomTensor(shape, seed: 65)
        func run(workers: Int) -> (output: Tensor, gradInput: Tensor, gradWeight: Tensor) {
            var generator = SeededGenerator(seed: 66)
            let layer = TemporalConvolution(
                inChannels: shape[1], outChannels: 3, kernelSize: kernelSize, stride: stride, padding: padding, using: &generator)
            layer.patchBudget = 1
            return ComputeThreads.withCount(workers) {
                let output = layer.forward(x, training: true)
                let gradInput = layer.backward(randomTensor(output.shape, seed: 67))
                return (output, gradInput, layer.weight.gradient)
            }
        }
        let single = run(workers: 1)
        for workers in [2, 3] {
            let parallel = run(workers: workers)
            #expect(parallel.output.values.map(\.bitPattern) == single.output.values.map(\.bitPattern))
            #expect(parallel.gradInput.values.map(\.bitPattern) == single.gradInput.values.map(\.bitPattern))
            expectClose(parallel.gradWeight.values, single.gradWeight.values, "weight gradient, \(workers) workers")
            #expect(run(workers: workers).gradWeight.values.map(\.bitPattern) == parallel.gradWeight.values.map(\.bitPattern))
        }
    }
}
