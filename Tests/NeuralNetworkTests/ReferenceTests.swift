import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

/// Forward passes and optimizer steps against an independent NumPy (float64) implementation.
///
/// The expected numbers were produced by this script (NumPy 2.4, `python3 reference.py`),
/// which implements each operation directly from its definition with explicit loops:
///
/// ```python
/// import numpy as np
/// def fixture(count, a=37, m=17, off=8, scale=8.0):   # exact binary fractions
///     return np.array([((i * a) % m - off) / scale for i in range(count)])
/// # Conv1d: x [2,3,9], W [4,3,3], b [4], stride 2, padding 1, dilation 2
/// x = fixture(54).reshape(2,3,9); W = fixture(36, 29, 13, 6).reshape(4,3,3); b = fixture(4, 5, 7, 3)
/// # y[n,o,t] = b[o] + sum_c sum_j W[o,c,j] x[n,c,t*2-1+j*2] over in-range frames
/// # BatchNorm1d: xb = fixture(24, 11, 19, 9, 4.0).reshape(3,2,4), gamma [1.5,-0.5], beta [0.25,1]
/// # train: biased var; running_mean = 0.1 mean; running_var = 0.9 + 0.1 var * 12/11; eval with those
/// # CrossEntropyLoss: z = fixture(12, 7, 11, 5, 2.0).reshape(3,4), labels [2,0,3],
/// # weight [1,2,0.5,1], label_smoothing 0.1; (1-eps) nll/sum(w[y]) + eps/K sum(-w logp)/sum(w[y]);
/// # gradient by central differences in float64 with h = 1e-6
/// # Optimizers: 3 steps on f = ½ Σ a θ² − b·θ, a [1,4,0.5], b [0.5,-1,0.25], θ₀ [1,-2,3],
/// # following the algorithm pseudo-code of torch.optim.Adam / AdamW / SGD.
/// ```
@Suite struct ReferenceTests {
    static func fixture(_ count: Int, _ a: Int = 37, _ m: Int = 17, _ offset: Int = 8, _ scale: Float = 8) -> [Float] {
        (0..<count).map { Float((($0 * a) % m) - offset) / scale }
    }

    @Test(arguments: [
        // (T, k, s, p, d, T_out) worked by hand from PyTorch's Conv1d formula; the last input is
        // shorter than the dilated filter, so the formula gives no output frame (-1).
        (9, 3, 2, 1, 2, 4), (10, 7, 1, 3, 1, 10), (10, 5, 1, 4, 2, 10), (8, 3, 3, 0, 1, 2),
        (5, 4, 1, 0, 1, 2), (100, 9, 4, 4, 3, 21), (3, 3, 1, 0, 2, -1),
    ])
    func convolutionOutputLength(_ c: (Int, Int, Int, Int, Int, Int)) {
        #expect(TemporalConvolution.outputLength(
            inputLength: c.0, kernelSize: c.1, stride: c.2, padding: c.3, dilation: c.4) == c.5)
    }

    /// Tolerance: 1e-5 relative (products of exact binary fractions summed in Float).
    @Test func convolutionForward() {
        var generator = SeededGenerator(seed: 0)
        let layer = TemporalConvolution(inChannels: 3, outChannels: 4, kernelSize: 3, stride: 2,
                                        padding: .explicit(1), dilation: 2, using: &generator)
        layer.weight.value = Tensor(shape: [4, 3, 3], values: Self.fixture(36, 29, 13, 6))
        layer.bias?.value = Tensor(shape: [4], values: Self.fixture(4, 5, 7, 3))
        let output = layer.forward(Tensor(shape: [2, 3, 9], values: Self.fixture(54)), training: false)
        #expect(output.shape == [2, 4, 4])
        expectClose(output.values, [
            0.953125, -0.671875, -1.8125, -0.203125, 0.515625, 1.125, -1.1875, -0.78125,
            -0.59375, 2.25, -1.234375, -1.015625, -0.890625, 1.953125, -1.484375, -1.25,
            -1.28125, 0.53125, -0.609375, -0.53125, -0.75, -0.078125, 0.796875, -0.40625,
            -0.890625, -1.359375, 1.53125, -0.75, -1.03125, -1.421875, 1.25, -1.09375,
        ], relative: 1e-5, absolute: 1e-6, "conv")
    }

    /// Training normalization, running statistics (unbiased variance) and evaluation mode;
    /// tolerance 1e-5 relative.
    @Test func batchNormalizationTrainingAndEvaluation() {
        let layer = BatchNormalization(channels: 2)
        layer.weight.value = Tensor(shape: [2], values: [1.5, -0.5])
        layer.bias.value = Tensor(shape: [2], values: [0.25, 1])
        let input = Tensor(shape: [3, 2, 4], values: Self.fixture(24, 11, 19, 9, 4))
        expectClose(layer.forward(input, training: true).values, [
            -1.93971189, 1.10283516, -1.10992633, 1.93262071, 1.29001641, 0.282590975, 1.01526402,
            1.74793707, 1.37943034, -0.833331143, 2.2092159, -0.00354558673, 0.191006844, 0.923679891,
            1.65635294, 0.648927499, -0.556735958, 2.48581108, 0.273049599, -1.93971189, 0.83209576,
            1.56476881, 0.557343368, 1.29001641,
        ], relative: 1e-5, absolute: 1e-6, "train")
        expectClose(layer.runningMean.value.values, [-0.0270833333, 0.00416666667], "runningMean")
        expectClose(layer.runningVariance.value.values, [1.10052083, 1.1032197], "runningVariance")
        expectClose(layer.forward(input, training: false).values, [
            -2.928435, 1.00364954, -1.85604831, 2.07603623, 1.3590082, 0.0499175318, 1.00198347,
            1.95404941, 1.36111177, -1.49858608, 2.43349846, -0.426199385, -0.0690907106, 0.882975228,
            1.83504117, 0.525950501, -1.14112385, 2.79096069, -0.0687371551, -2.928435, 0.763966986,
            1.71603292, 0.406942259, 1.3590082,
        ], relative: 1e-5, absolute: 1e-6, "eval")
        // Evaluation does not move the running statistics.
        expectClose(layer.runningMean.value.values, [-0.0270833333, 0.00416666667], "runningMean after eval")
    }

    /// Weighted, label-smoothed cross-entropy; tolerance 1e-5 relative on the loss and
    /// 1e-4 absolute on the gradient (the reference gradient is a float64 central difference).
    @Test func crossEntropyWithWeightsAndSmoothing() {
        let logits = Tensor(shape: [3, 4], values: Self.fixture(12, 7, 11, 5, 2))
        let weights: [Float] = [1, 2, 0.5, 1]
        let mean = softmaxCrossEntropy(logits: logits, labels: [2, 0, 3], classWeights: weights, labelSmoothing: 0.1)
        #expect(isClose(Double(mean.loss), 3.15084207, relative: 1e-5))
        expectClose(mean.gradient.values, [
            -0.00879685769, 0.0198426007, -0.179607891, 0.168562148, -0.304924654, -0.0111930096,
            0.28664747, 0.029470193, 0.000330665051, 0.322104642, 0.0412988284, -0.363734135,
        ], relative: 0, absolute: 1e-4, "gradient")
        let sum = softmaxCrossEntropy(logits: logits, labels: [2, 0, 3], classWeights: weights,
                                      labelSmoothing: 0.1, reduction: .sum)
        #expect(isClose(Double(sum.loss), 7.87710517, relative: 1e-5))
        for row in 0..<3 {
            let total = (0..<4).reduce(0.0) { $0 + Double(mean.probabilities[row, $1]) }
            #expect(isClose(total, 1, relative: 1e-6))
        }
    }

    /// Without weights or smoothing, cross-entropy of uniform logits is log K, and huge logits
    /// stay finite (stable log-softmax).
    @Test func crossEntropyWorkedExamples() {
        let uniform = softmaxCrossEntropy(logits: Tensor(zeros: [2, 4]), labels: [1, 3])
        #expect(isClose(Double(uniform.loss), 1.3862943611198906, relative: 1e-6))
        let large = softmaxCrossEntropy(logits: Tensor(shape: [1, 2], values: [1000, 0]), labels: [1])
        #expect(isClose(Double(large.loss), 1000, relative: 1e-6))
        #expect(large.gradient.values.allSatisfy { $0.isFinite })
        expectClose(softmax(Tensor(shape: [1, 2], values: [0, Float(2).squareRoot()])).values,
                    [0.19557032, 0.80442968], relative: 1e-6, "softmax")
    }

    enum OptimizerCase: String, CaseIterable, Sendable {
        case adam, adamL2, adamW, sgdPlain, sgdMomentum, sgdNesterov

        func make() -> any Optimizer {
            switch self {
            case .adam: Adam(learningRate: 0.1)
            case .adamL2: Adam(learningRate: 0.1, weightDecay: 0.1)
            case .adamW: AdamW(learningRate: 0.1, weightDecay: 0.1)
            case .sgdPlain: SGD(learningRate: 0.1)
            case .sgdMomentum: SGD(learningRate: 0.1, momentum: 0.9, weightDecay: 0.01)
            case .sgdNesterov: SGD(learningRate: 0.1, momentum: 0.9, weightDecay: 0.01, nesterov: true)
            }
        }

        var expected: [Float] {
            switch self {
            case .adam: [0.704871256, -1.7007384, 2.70047394]
            case .adamL2: [0.704173895, -1.70073511, 2.70045561]
            case .adamW: [0.679040174, -1.64451845, 2.61453723]
            case .sgdPlain: [0.8645, -0.628, 2.6434375]
            case .sgdMomentum: [0.738094549, 0.699892702, 2.31292147]
            case .sgdNesterov: [0.657572706, 0.509527893, 2.05823587]
            }
        }
    }

    /// Three steps on `f(θ) = ½ Σ aᵢθᵢ² − b·θ`; tolerance 1e-5 relative.
    @Test(arguments: OptimizerCase.allCases)
    func optimizerSteps(_ optimizerCase: OptimizerCase) {
        let (a, b): ([Float], [Float]) = ([1, 4, 0.5], [0.5, -1, 0.25])
        let parameter = Parameter(name: "theta", value: Tensor(shape: [3], values: [1, -2, 3]))
        let optimizer = optimizerCase.make()
        for _ in 0..<3 {
            zeroGradients([parameter])
            for i in 0..<3 { parameter.gradient.values[i] = a[i] * parameter.value.values[i] - b[i] }
            optimizer.step(parameters: [parameter])
        }
        #expect(optimizer.stepCount == 3)
        expectClose(parameter.value.values, optimizerCase.expected, relative: 1e-5, absolute: 1e-6, optimizerCase.rawValue)
    }
}
