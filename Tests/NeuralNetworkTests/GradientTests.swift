import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// Finite-difference checks of every layer's backward pass (see `checkGradients` for the loss
/// and the tolerance: central differences with ε = 1e-2, |a − n| ≤ 2e-3 + 1e-2 · max(|a|, |n|)).
@Suite struct GradientTests {
    @Test func linear() {
        var generator = SeededGenerator(seed: 1)
        let layer = Linear(inputs: 4, outputs: 3, using: &generator)
        checkGradients(of: layer, input: randomTensor([5, 4], seed: 2))
    }

    struct ConvolutionCase: Sendable, CustomTestStringConvertible {
        var kernelSize: Int
        var stride: Int
        var padding: TemporalConvolution.Padding
        var dilation: Int
        var length: Int
        var testDescription: String { "k=\(kernelSize) s=\(stride) p=\(padding) d=\(dilation) T=\(length)" }
    }

    @Test(arguments: [
        ConvolutionCase(kernelSize: 3, stride: 1, padding: .same, dilation: 1, length: 6),
        ConvolutionCase(kernelSize: 3, stride: 2, padding: .explicit(1), dilation: 1, length: 7),
        ConvolutionCase(kernelSize: 3, stride: 1, padding: .same, dilation: 2, length: 7),
        ConvolutionCase(kernelSize: 2, stride: 2, padding: .explicit(0), dilation: 2, length: 8),
        ConvolutionCase(kernelSize: 5, stride: 3, padding: .explicit(2), dilation: 1, length: 9),
    ])
    func temporalConvolution(_ configuration: ConvolutionCase) {
        var generator = SeededGenerator(seed: 3)
        let layer = TemporalConvolution(
            inChannels: 2, outChannels: 3, kernelSize: configuration.kernelSize,
            stride: configuration.stride, padding: configuration.padding,
            dilation: configuration.dilation, using: &generator)
        checkGradients(of: layer, input: randomTensor([2, 2, configuration.length], seed: 4))
    }

    @Test(arguments: [[4, 3, 5], [6, 3]], [true, false])
    func batchNormalization(shape: [Int], training: Bool) {
        let layer = BatchNormalization(channels: 3)
        layer.weight.value = Tensor(shape: [3], values: [1.5, -0.5, 0.8])
        layer.bias.value = Tensor(shape: [3], values: [0.1, 0.2, -0.3])
        layer.runningVariance.value = Tensor(shape: [3], values: [0.5, 2, 1])
        checkGradients(of: layer, input: randomTensor(shape, seed: 5) * 2, training: training)
    }

    @Test func relu() {
        checkGradients(of: ReLU(), input: randomTensor([3, 2, 4], seed: 6, margin: 0.1))
    }

    @Test func globalAveragePooling() {
        checkGradients(of: GlobalAveragePooling(), input: randomTensor([2, 3, 5], seed: 7))
    }

    @Test func dropoutWithFixedMask() {
        let layer = Dropout(rate: 0.4)
        checkGradients(of: layer, input: randomTensor([3, 6], seed: 8)) {
            layer.generator = SeededGenerator(seed: 9)
        }
    }

    @Test(arguments: [
        (nil, Float(0), Reduction.mean),
        ([1, 2, 0.5, 1], 0.1, .mean),
        ([0.3, 1, 2, 0.7], 0.2, .sum),
    ] as [([Float]?, Float, Reduction)])
    func softmaxCrossEntropyGradient(classWeights: [Float]?, labelSmoothing: Float, reduction: Reduction) {
        let logits = randomTensor([5, 4], seed: 10) * 3
        let labels = [0, 3, 1, 1, 2]
        func loss(_ z: Tensor) -> Double {
            Double(softmaxCrossEntropy(logits: z, labels: labels, classWeights: classWeights,
                                       labelSmoothing: labelSmoothing, reduction: reduction).loss)
        }
        let gradient = softmaxCrossEntropy(logits: logits, labels: labels, classWeights: classWeights,
                                           labelSmoothing: labelSmoothing, reduction: reduction).gradient
        let epsilon: Float = 1e-2
        for i in 0..<logits.count {
            var plus = logits, minus = logits
            plus.values[i] += epsilon
            minus.values[i] -= epsilon
            let numerical = (loss(plus) - loss(minus)) / (2 * Double(epsilon))
            #expect(isClose(Double(gradient.values[i]), numerical, relative: 1e-2, absolute: 1e-3),
                    "∂z[\(i)]: \(gradient.values[i]) vs \(numerical)")
        }
    }

    /// The whole network in training mode: gradient with respect to the input and to the input
    /// normalization's weight, the first convolution's bias and the classifier's weight.
    @Test func temporalConvolutionalNetwork() throws {
        let configuration = TemporalConvolutionalNetwork.Configuration(
            inputChannels: 3, classCount: 3, channels: [4, 5], kernelSizes: [3, 3], dilations: [1, 2])
        let model = try TemporalConvolutionalNetwork(configuration: configuration, seed: 12)
        let names = model.namedParameters.map(\.name)
        let checked = ["inputNormalization.weight", "blocks.0.convolution.bias", "classifier.weight"]
            .compactMap { names.firstIndex(of: $0) }
        #expect(checked.count == 3)
        checkGradients(of: model, input: randomTensor([3, 3, 6], seed: 13), parameterIndices: checked,
                       epsilon: 1e-3, relative: 2e-2, absolute: 3e-3)
    }
}
