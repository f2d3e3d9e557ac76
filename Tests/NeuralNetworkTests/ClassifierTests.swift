import Foundation
import NeuralNetwork
import NeuralNetworkTestSupport
import Randomness
import Testing

@Suite struct ClassifierTests {
    static let configuration = TemporalConvolutionalNetwork.Configuration(
        inputChannels: 6, classCount: 3, channels: [8, 8], kernelSizes: [5, 3], dilations: [1, 2], dropout: 0.2)

    static func makeModel(seed: UInt64) throws -> TemporalConvolutionalNetwork {
        try TemporalConvolutionalNetwork(configuration: configuration, seed: seed)
    }

    @Test func temporalConvolutionalNetworkPassesClassifierCheck() throws {
        try checkClassifier({ try Self.makeModel(seed: $0) },
                            input: randomTensor([4, 6, 10], seed: 20), labels: [0, 1, 2, 1])
    }

    @Test func stateDictionaryNamesAndCount() throws {
        let model = try Self.makeModel(seed: 0)
        let names = model.stateDictionary().map(\.name)
        #expect(names == [
            "inputNormalization.weight", "inputNormalization.bias",
            "inputNormalization.runningMean", "inputNormalization.runningVariance",
            "blocks.0.convolution.weight", "blocks.0.convolution.bias",
            "blocks.0.batchNorm.weight", "blocks.0.batchNorm.bias",
            "blocks.0.batchNorm.runningMean", "blocks.0.batchNorm.runningVariance",
            "blocks.1.convolution.weight", "blocks.1.convolution.bias",
            "blocks.1.batchNorm.weight", "blocks.1.batchNorm.bias",
            "blocks.1.batchNorm.runningMean", "blocks.1.batchNorm.runningVariance",
            "classifier.weight", "classifier.bias",
        ])
        // 2·6 + (8·6·5 + 8) + 2·8 + (8·8·3 + 8) + 2·8 + (3·8 + 3)
        #expect(model.parameterCount == 12 + 248 + 16 + 200 + 16 + 27)
        #expect(model.inputShape == [6, nil])
    }

    @Test func defaultConfiguration() throws {
        let configuration = TemporalConvolutionalNetwork.Configuration(inputChannels: 54, classCount: 4)
        #expect(configuration.channels == [64, 64, 64])
        #expect(configuration.kernelSizes == [7, 5, 3])
        #expect(configuration.dilations == [1, 1, 1])
        #expect(configuration.dropout == 0)
        let model = try TemporalConvolutionalNetwork(configuration: configuration, seed: 0)
        #expect(model.forward(randomTensor([2, 54, 30], seed: 1), training: true).shape == [2, 4])
    }

    @Test func invalidConfigurationListsProblems() {
        let configuration = TemporalConvolutionalNetwork.Configuration(
            inputChannels: 6, classCount: 1, channels: [8, 8], kernelSizes: [4, 3], dropout: 1)
        #expect(throws: TemporalConvolutionalNetwork.InvalidConfiguration.self) {
            try TemporalConvolutionalNetwork(configuration: configuration, seed: 0)
        }
        #expect(configuration.problems.count == 3)
    }

    enum Corruption: String, CaseIterable, Sendable {
        case missing, misShaped, unexpected, duplicated
    }

    @Test(arguments: Corruption.allCases)
    func loadRejectsBadStateDictionary(_ corruption: Corruption) throws {
        let model = try Self.makeModel(seed: 0)
        let before = model.stateDictionary()
        var state = try Self.makeModel(seed: 1).stateDictionary()
        let expected: StateDictionaryError
        switch corruption {
        case .missing:
            state.removeAll { $0.name == "classifier.bias" }
            expected = .missingTensor(name: "classifier.bias")
        case .misShaped:
            let index = try #require(state.firstIndex { $0.name == "blocks.1.batchNorm.runningMean" })
            state[index].tensor = Tensor(zeros: [9])
            expected = .shapeMismatch(name: "blocks.1.batchNorm.runningMean", expected: [8], actual: [9])
        case .unexpected:
            state.append((name: "blocks.2.convolution.weight", tensor: Tensor(zeros: [1])))
            expected = .unexpectedTensor(name: "blocks.2.convolution.weight")
        case .duplicated:
            state.append(state[0])
            expected = .duplicateTensor(name: state[0].name)
        }
        #expect(throws: expected) { try model.load(stateDictionary: state) }
        #expect(model.stateDictionary().map(\.tensor) == before.map(\.tensor), "failed load must change nothing")
    }

    /// Sine versus square waves of random phase and frequency: 16 windows of 6 channels × 24
    /// frames must be classified perfectly (evaluation mode) within 60 full-batch Adam steps.
    @Test func learnsSineVersusSquareWaves() throws {
        let (count, channels, length) = (16, 6, 24)
        var generator = SeededGenerator(seed: 3, purpose: "toy-data")
        var input = Tensor(zeros: [count, channels, length])
        var labels: [Int] = []
        for n in 0..<count {
            let label = n % 2
            labels.append(label)
            let phase = generator.nextUniform(from: 0, to: 2 * .pi)
            let frequency = generator.nextUniform(from: 0.1, to: 0.2)
            for c in 0..<channels {
                for t in 0..<length {
                    let wave = Foundation.sin(2 * Float.pi * frequency * Float(t) + phase + Float(c) * 0.3)
                    input[n, c, t] = label == 0 ? wave : (wave >= 0 ? 1 : -1)
                }
            }
        }
        let model = try TemporalConvolutionalNetwork(
            configuration: .init(inputChannels: channels, classCount: 2, channels: [8, 8], kernelSizes: [3, 3]),
            seed: 4)
        let losses = train(model, input: input, labels: labels, steps: 60, seed: 4,
                           optimizer: Adam(learningRate: 0.02))
        let predictions = softmax(model.forward(input, training: false))
        let correct = (0..<count).filter { n in
            (predictions[n, 1] > predictions[n, 0] ? 1 : 0) == labels[n]
        }.count
        #expect(correct == count, "train accuracy \(correct)/\(count), losses \(losses.first ?? 0) → \(losses.last ?? 0)")
        #expect((losses.last ?? .infinity) < (losses.first ?? 0))
    }

    /// Resuming from saved optimizer state continues exactly as an uninterrupted run.
    @Test(arguments: ["adam", "adamW", "sgd"])
    func optimizerStateRoundTrip(_ kind: String) throws {
        func makeOptimizer() -> any Optimizer {
            switch kind {
            case "adam": Adam(learningRate: 0.01)
            case "adamW": AdamW(learningRate: 0.01)
            default: SGD(learningRate: 0.05, momentum: 0.9, nesterov: true)
            }
        }
        let input = randomTensor([4, 6, 10], seed: 30)
        let labels = [0, 1, 2, 0]
        let uninterrupted = try Self.makeModel(seed: 8)
        train(uninterrupted, input: input, labels: labels, steps: 4, seed: 1, optimizer: makeOptimizer())

        let resumedModel = try Self.makeModel(seed: 8)
        let firstOptimizer = makeOptimizer()
        train(resumedModel, input: input, labels: labels, steps: 2, seed: 1, optimizer: firstOptimizer)
        let savedModel = resumedModel.stateDictionary()
        let savedOptimizer = firstOptimizer.stateDictionary()
        let secondModel = try Self.makeModel(seed: 99)
        try secondModel.load(stateDictionary: savedModel)
        let secondOptimizer = makeOptimizer()
        try secondOptimizer.load(stateDictionary: savedOptimizer)
        #expect(secondOptimizer.stepCount == 2)
        // Batches 2 and 3 of the uninterrupted run: continue with the same dropout indices.
        for step in 2..<4 {
            secondModel.seedDropout(seed: 1, epoch: 0, batch: step)
            zeroGradients(secondModel.parameters)
            let result = softmaxCrossEntropy(logits: secondModel.forward(input, training: true), labels: labels)
            secondModel.backward(result.gradient)
            secondOptimizer.step(parameters: secondModel.parameters)
        }
        #expect(secondModel.stateDictionary().map(\.tensor) == uninterrupted.stateDictionary().map(\.tensor))
    }

    @Test func optimizerLoadRejectsMissingMoment() {
        let optimizer = Adam()
        #expect(throws: StateDictionaryError.missingTensor(name: "0.secondMoment")) {
            try optimizer.load(stateDictionary: [
                ("step", Tensor(shape: [1], values: [3])), ("0.firstMoment", Tensor(zeros: [2])),
            ])
        }
        #expect(throws: StateDictionaryError.missingTensor(name: "step")) {
            try optimizer.load(stateDictionary: [])
        }
    }
}
