import NeuralNetwork
import NeuralNetworkTestSupport
import Testing

/// ``LateFusionEnsemble``: the softmax of its output is the weighted mean of its members'
/// probabilities, its gradients match finite differences, its state dictionary is the members'
/// under their names, and bad members or weights are errors that say why.
@Suite struct LateFusionEnsembleTests {
    static func member(seed: UInt64, classCount: Int = 3) throws -> MultilayerPerceptron {
        try MultilayerPerceptron(configuration: .init(inputChannels: 6, frames: 4, hiddenUnits: 5, classCount: classCount), seed: seed)
    }

    static func ensemble(weights: [Double] = [2, 1, 1]) throws -> LateFusionEnsemble {
        try LateFusionEnsemble(
            members: [("joint", try member(seed: 1)), ("bone", try member(seed: 2)), ("jointMotion", try member(seed: 3))],
            weights: weights)
    }

    @Test func softmaxOfTheOutputIsTheWeightedMeanOfTheMembersProbabilities() throws {
        let ensemble = try Self.ensemble()
        let input = randomTensor([4, 6, 4], seed: 5)
        let fused = softmax(ensemble.forward(input, training: false)).values
        var expected = [Double](repeating: 0, count: fused.count)
        for ((_, member), weight) in zip(ensemble.members, [0.5, 0.25, 0.25]) {
            let probabilities = softmax(member.forward(input, training: false)).values
            for index in expected.indices { expected[index] += weight * Double(probabilities[index]) }
        }
        for (actual, reference) in zip(fused, expected) { #expect(abs(Double(actual) - reference) < 1e-6) }
        #expect(ensemble.weights == [0.5, 0.25, 0.25])
        #expect(ensemble.classCount == 3 && ensemble.inputShape == ensemble.members[0].classifier.inputShape)
    }

    @Test func gradientsMatchFiniteDifferences() throws {
        checkGradients(of: try Self.ensemble(), input: randomTensor([2, 6, 4], seed: 7), training: false, epsilon: 1e-3)
    }

    @Test func stateDictionaryIsTheMembersUnderTheirNames() throws {
        let ensemble = try Self.ensemble()
        let names = ensemble.stateDictionary().map(\.name)
        let memberNames = try Self.member(seed: 1).stateDictionary().map(\.name)
        #expect(names == ["joint", "bone", "jointMotion"].flatMap { stream in memberNames.map { "\(stream).\($0)" } })
    }

    @Test(arguments: [
        ([2.0, 1.0], "one finite, non-negative weight per member"),
        ([1.0, -1.0, 1.0], "one finite, non-negative weight per member"),
        ([0.0, 0.0, 0.0], "summing to more than 0"),
        ([1.0, .nan, 1.0], "one finite, non-negative weight per member"),
    ])
    func badWeightsAreErrors(weights: [Double], message: String) throws {
        #expect { try Self.ensemble(weights: weights) } throws: { "\($0)".contains(message) }
    }

    @Test func membersThatDifferAreErrors() throws {
        #expect {
            try LateFusionEnsemble(members: [("joint", try Self.member(seed: 1)), ("bone", try Self.member(seed: 2, classCount: 4))], weights: [1, 1])
        } throws: { "\($0)".contains("member 'bone' has 4 classes") }
        #expect {
            try LateFusionEnsemble(members: [("joint", try Self.member(seed: 1)), ("joint", try Self.member(seed: 2))], weights: [1, 1])
        } throws: { "\($0)".contains("distinct") }
        #expect { try LateFusionEnsemble(members: [], weights: []) } throws: { "\($0)".contains("at least one member") }
    }
}
