import NeuralNetwork
import Testing

/// Trains `model` for `steps` full-batch Adam steps with dropout seeded per step; returns the losses.
@discardableResult
public func train(_ model: some Classifier, input: Tensor, labels: [Int], steps: Int, seed: UInt64,
           optimizer: any Optimizer = Adam(learningRate: 0.01)) -> [Float] {
    var losses: [Float] = []
    for step in 0..<steps {
        model.seedDropout(seed: seed, epoch: 0, batch: step)
        zeroGradients(model.parameters)
        let logits = model.forward(input, training: true)
        let result = softmaxCrossEntropy(logits: logits, labels: labels)
        _ = model.backward(result.gradient)
        optimizer.step(parameters: model.parameters)
        losses.append(result.loss)
    }
    return losses
}

/// The check every classifier must pass (scikit-learn's `check_estimator` habit): output shape,
/// seeded determinism (bit-identical after training), seed sensitivity, and a state-dictionary
/// round trip that reproduces the outputs bit for bit.
public func checkClassifier(
    _ make: (UInt64) throws -> any Classifier, input: Tensor, labels: [Int],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let first = try make(1)
    let logits = first.forward(input, training: false)
    #expect(logits.shape == [input.shape[0], first.classCount], sourceLocation: sourceLocation)

    let second = try make(1)
    let other = try make(2)
    for model in [first, second, other] {
        train(model, input: input, labels: labels, steps: 3, seed: 5)
    }
    let firstState = first.stateDictionary()
    #expect(firstState.map(\.name) == second.stateDictionary().map(\.name), sourceLocation: sourceLocation)
    #expect(firstState.map(\.tensor) == second.stateDictionary().map(\.tensor),
            "same seed must give bit-identical state", sourceLocation: sourceLocation)
    #expect(firstState.map(\.tensor) != other.stateDictionary().map(\.tensor),
            "different seeds must differ", sourceLocation: sourceLocation)

    let restored = try make(3)
    try restored.load(stateDictionary: firstState)
    #expect(restored.forward(input, training: false) == first.forward(input, training: false),
            "loaded model must reproduce outputs", sourceLocation: sourceLocation)
}
