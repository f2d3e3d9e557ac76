import Foundation
import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// Learning-rate schedules, gradient clipping, balanced class weights, keypoint normalization
/// and the MLP, each against the formula of its source (PyTorch, scikit-learn) worked by hand.
@Suite struct TrainingEngineTests {
    // MARK: - Schedules (torch.optim.lr_scheduler, stepped once per epoch)

    @Test func constantScheduleKeepsTheBaseRate() {
        let schedule = LearningRateSchedule(baseLearningRate: 0.01, totalEpochs: 5)
        #expect((0..<5).map(schedule.learningRate(epoch:)) == [0.01, 0.01, 0.01, 0.01, 0.01])
    }

    @Test func stepScheduleMatchesStepLR() {
        // StepLR(step_size=2, gamma=0.5) from 0.1: 0.1, 0.1, 0.05, 0.05, 0.025.
        let schedule = LearningRateSchedule(baseLearningRate: 0.1, kind: .step(everyEpochs: 2, gamma: 0.5), totalEpochs: 5)
        let rates = (0..<5).map(schedule.learningRate(epoch:))
        for (rate, expected) in zip(rates, [0.1, 0.1, 0.05, 0.05, 0.025]) { #expect(isClose(rate, expected, relative: 1e-12)) }
    }

    @Test func cosineScheduleMatchesCosineAnnealingLR() {
        // CosineAnnealingLR(T_max=4, eta_min=0.001) from 0.1: η_min + (η − η_min)(1 + cos(π t/4))/2.
        let schedule = LearningRateSchedule(baseLearningRate: 0.1, kind: .cosine(minimum: 0.001), totalEpochs: 4)
        let expected = (0..<4).map { 0.001 + 0.099 * (1 + cos(Double.pi * Double($0) / 4)) / 2 }
        for epoch in 0..<4 { #expect(isClose(schedule.learningRate(epoch: epoch), expected[epoch], relative: 1e-12)) }
        #expect(schedule.learningRate(epoch: 0) == 0.1)
        #expect(isClose(schedule.learningRate(epoch: 2), 0.0505, relative: 1e-12))
    }

    @Test func warmupRampsLinearlyThenHandsOver() {
        // Three warm-up epochs η/3, 2η/3, η, then the cosine over the remaining 4 epochs.
        let schedule = LearningRateSchedule(baseLearningRate: 0.3, kind: .cosine(minimum: 0), warmupEpochs: 3, totalEpochs: 7)
        #expect(isClose(schedule.learningRate(epoch: 0), 0.1, relative: 1e-12))
        #expect(isClose(schedule.learningRate(epoch: 1), 0.2, relative: 1e-12))
        #expect(isClose(schedule.learningRate(epoch: 2), 0.3, relative: 1e-12))
        #expect(schedule.learningRate(epoch: 3) == 0.3)
        #expect(isClose(schedule.learningRate(epoch: 5), 0.15, relative: 1e-12))
    }

    // MARK: - Gradient clipping (torch.nn.utils.clip_grad_norm_)

    @Test func clippingScalesToTheMaximumNorm() {
        let a = Parameter(name: "a", value: Tensor(zeros: [2]))
        let b = Parameter(name: "b", value: Tensor(zeros: [1]))
        a.gradient = Tensor(shape: [2], values: [3, 0])
        b.gradient = Tensor(shape: [1], values: [4])
        let norm = clipGradientNorm([a, b], maximumNorm: 1)
        #expect(norm == 5)
        let coefficient: Float = 1 / (5 + 1e-6)
        #expect(a.gradient.values == [3 * coefficient, 0])
        #expect(b.gradient.values == [4 * coefficient])
    }

    @Test func clippingLeavesSmallGradientsAlone() {
        let a = Parameter(name: "a", value: Tensor(zeros: [2]))
        a.gradient = Tensor(shape: [2], values: [0.3, -0.4])
        #expect(clipGradientNorm([a], maximumNorm: 1) == 0.5)
        #expect(a.gradient.values == [0.3, -0.4])
    }

    // MARK: - Class weights (sklearn.utils.class_weight.compute_class_weight("balanced"))

    @Test func balancedWeightsFollowScikitLearn() throws {
        // y = [0]*6 + [1]*3 + [2]*1: 10 / (3 · [6, 3, 1]).
        let weights = try #require(balancedClassWeights(counts: [6, 3, 1]))
        expectClose(weights, [Float(10.0 / 18), Float(10.0 / 9), Float(10.0 / 3)], relative: 1e-7)
        #expect(balancedClassWeights(counts: [4, 4]) == [1, 1])
        #expect(balancedClassWeights(counts: [3, 0]) == nil)
    }

    // MARK: - Keypoint normalization

    /// Two windows, 3 channels (x, y, confidence), 5 joints, 3 frames; confidence ≤ −0.5 means
    /// undetected, so finite differences never flip a joint's detection.
    static func keypoints(seed: UInt64) -> Tensor {
        var x = randomTensor([2, 15, 3], seed: seed, margin: 0.5)
        for n in 0..<2 {
            for t in 0..<3 { x.values[((n * 3 + 2) * 5 + 1) * 3 + t] = t == 2 ? -0.7 : 0.9 }  // joint 1 missing in frame 2
        }
        return x
    }

    static let normalization = KeypointNormalization.Configuration(
        channelCount: 3, jointCount: 5, xChannel: 0, yChannel: 1, confidenceChannel: 2, centreJoint: 1)

    @Test func normalizedFramesAreCentredAndScaled() {
        let layer = KeypointNormalization(configuration: Self.normalization)
        let input = Self.keypoints(seed: 4)
        let output = layer.forward(input, training: false)
        func value(_ x: Tensor, _ n: Int, _ c: Int, _ j: Int, _ t: Int) -> Float { x.values[((n * 3 + c) * 5 + j) * 3 + t] }
        for n in 0..<2 {
            for t in 0..<3 {
                let detected = (0..<5).filter { value(input, n, 2, $0, t) > 0 }
                var radii: Float = 0
                for j in 0..<5 {
                    #expect(value(output, n, 2, j, t) == value(input, n, 2, j, t), "confidence passes through")
                    if !detected.contains(j) {
                        #expect(value(output, n, 0, j, t) == 0 && value(output, n, 1, j, t) == 0)
                    } else {
                        radii += (value(output, n, 0, j, t) * value(output, n, 0, j, t)
                            + value(output, n, 1, j, t) * value(output, n, 1, j, t)).squareRoot()
                    }
                }
                if detected.count >= 2 {
                    #expect(isClose(Double(radii / Float(detected.count)), 1, relative: 1e-5), "mean radius 1 after scaling")
                }
                if detected.contains(1) {
                    #expect(value(output, n, 0, 1, t) == 0 && value(output, n, 1, 1, t) == 0, "the neck is the centre")
                } else {
                    let meanX = detected.map { value(output, n, 0, $0, t) }.reduce(0, +) / Float(detected.count)
                    #expect(abs(meanX) < 1e-5, "without the neck the mean is the centre")
                }
            }
        }
    }

    @Test(arguments: [1, nil] as [Int?])
    func keypointNormalizationGradients(centreJoint: Int?) {
        var configuration = Self.normalization
        configuration.centreJoint = centreJoint
        checkGradients(of: KeypointNormalization(configuration: configuration), input: Self.keypoints(seed: 5), epsilon: 1e-3)
    }

    // MARK: - MLP

    static func multilayerPerceptron(seed: UInt64, normalized: Bool = false) throws -> MultilayerPerceptron {
        try MultilayerPerceptron(
            configuration: .init(inputChannels: 15, frames: 3, hiddenUnits: 8, classCount: 3, dropout: 0.2,
                                 keypointNormalization: normalized ? .imagePose(normalization) : nil),
            seed: seed)
    }

    @Test func multilayerPerceptronPassesClassifierCheck() throws {
        try checkClassifier({ try Self.multilayerPerceptron(seed: $0) }, input: Self.keypoints(seed: 6), labels: [0, 2])
        try checkClassifier({ try Self.multilayerPerceptron(seed: $0, normalized: true) }, input: Self.keypoints(seed: 6), labels: [0, 2])
        let names = try Self.multilayerPerceptron(seed: 0).stateDictionary().map(\.name)
        #expect(names == [
            "inputNormalization.weight", "inputNormalization.bias", "inputNormalization.runningMean",
            "inputNormalization.runningVariance", "hidden.weight", "hidden.bias", "classifier.weight", "classifier.bias",
        ])
    }

    @Test func multilayerPerceptronGradients() throws {
        let model = try MultilayerPerceptron(
            configuration: .init(inputChannels: 15, frames: 3, hiddenUnits: 4, classCount: 3, keypointNormalization: .imagePose(Self.normalization)),
            seed: 1)
        checkGradients(of: model, input: Self.keypoints(seed: 7), training: false, epsilon: 1e-3)
    }

    @Test func normalizedGraphModelPassesClassifierCheck() throws {
        let graph = SpatialGraph(jointCount: 5, edges: [(0, 1), (1, 2), (1, 3), (3, 4)], center: 1)
        try checkClassifier({ seed in
            try SpatialTemporalGraphConvolutionalNetwork(
                configuration: .init(channelCount: 3, graph: graph, classCount: 2, blocks: [.init(channels: 4), .init(channels: 4, stride: 2)],
                                     temporalKernelSize: 3, keypointNormalization: .imagePose(Self.normalization)),
                seed: seed)
        }, input: Self.keypoints(seed: 8), labels: [0, 1])
    }
}
