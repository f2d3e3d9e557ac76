import Dataset
import Manifest
import NeuralNetwork

/// Scores a trained classifier on a set of windows, per window and per sequence.
public struct Evaluator: Sendable {
    /// Windows per forward pass; only memory depends on it (evaluation mode has no batch statistics).
    public var batchSize: Int
    /// Sequence-level aggregation rule.
    public var aggregation: EvaluationConfiguration.Aggregation

    public init(batchSize: Int, aggregation: EvaluationConfiguration.Aggregation) {
        self.batchSize = max(1, batchSize)
        self.aggregation = aggregation
    }

    /// Class probabilities of every window, flattened `[N, K]`, and the mean cross-entropy.
    ///
    /// - Throws: `FeatureCacheError` if a streamed window cannot be read.
    public func predict(_ model: any Classifier, on windows: WindowSet) throws -> (probabilities: [Float], loss: Double) {
        var probabilities: [Float] = []
        probabilities.reserveCapacity(windows.count * windows.labels.count)
        var lossSum = 0.0
        let all = Array(0..<windows.count)
        for start in Swift.stride(from: 0, to: windows.count, by: batchSize) {
            let indices = all[start..<min(start + batchSize, windows.count)]
            // The inference path, as the predictor's (the same probabilities for the same window).
            let logits = model.infer(try BatchAssembler.inputs(windows, indices: indices))
            let result = softmaxCrossEntropy(logits: logits, labels: BatchAssembler.labels(windows, indices: indices))
            lossSum += Double(result.loss) * Double(indices.count)
            probabilities.append(contentsOf: result.probabilities.values)
        }
        return (probabilities, windows.count > 0 ? lossSum / Double(windows.count) : 0)
    }

    /// Window-level and sequence-level metrics of `model` on `windows`.
    ///
    /// - Throws: `FeatureCacheError` if a streamed window cannot be read.
    public func evaluate(_ model: any Classifier, on windows: WindowSet) throws -> SplitMetrics {
        let (probabilities, loss) = try predict(model, on: windows)
        return metrics(probabilities: probabilities, loss: loss, windows: windows)
    }

    /// Metrics from already computed window probabilities `[N, K]`.
    public func metrics(probabilities: [Float], loss: Double, windows: WindowSet) -> SplitMetrics {
        metrics(of: WindowScores(windows: windows, probabilities: probabilities), loss: loss)
    }

    /// Window-level and sequence-level metrics of scored windows (``WindowScores``).
    ///
    /// - Parameters:
    ///   - scores: The probabilities and labels of every window; must have no ``WindowScores/problems``.
    ///   - loss: The mean cross-entropy to report, or nil when it is not known (a fused ensemble).
    public func metrics(of scores: WindowScores, loss: Double?) -> SplitMetrics {
        let classCount = scores.labels.count
        var windowConfusion = ConfusionMatrix(labels: scores.labels)
        var sequenceScores = Array(repeating: [Double](repeating: 0, count: classCount), count: scores.sequenceIDs.count)
        var sequenceVotes = Array(repeating: [Int](repeating: 0, count: classCount), count: scores.sequenceIDs.count)
        var sequenceWindowCounts = [Int](repeating: 0, count: scores.sequenceIDs.count)
        for window in 0..<scores.count {
            let row = scores.probabilities[(window * classCount)..<((window + 1) * classCount)]
            let predicted = Self.argmax(row.map(Double.init))
            windowConfusion.record(trueIndex: scores.labelIndices[window], predictedIndex: predicted)
            let sequence = scores.sequenceIndices[window]
            for (k, p) in row.enumerated() { sequenceScores[sequence][k] += Double(p) }
            sequenceVotes[sequence][predicted] += 1
            sequenceWindowCounts[sequence] += 1
        }
        var sequenceConfusion = ConfusionMatrix(labels: scores.labels)
        for sequence in scores.sequenceIDs.indices where sequenceWindowCounts[sequence] > 0 {
            let meanProbabilities = sequenceScores[sequence].map { $0 / Double(sequenceWindowCounts[sequence]) }
            let predicted: Int
            switch aggregation {
            case .mean:
                predicted = Self.argmax(meanProbabilities)
            case .vote:
                // Most votes; among tied classes, the higher mean probability.
                let keys = zip(sequenceVotes[sequence], meanProbabilities).map { Double($0) * 2 + $1 }
                predicted = Self.argmax(keys)
            }
            sequenceConfusion.record(trueIndex: scores.sequenceLabelIndices[sequence], predictedIndex: predicted)
        }
        return SplitMetrics(
            window: ClassificationMetrics(confusion: windowConfusion, loss: loss),
            sequence: ClassificationMetrics(confusion: sequenceConfusion, loss: nil))
    }

    /// Index of the largest value; the first one on ties.
    static func argmax<C: Collection>(_ values: C) -> Int where C.Element == Double {
        var best = 0
        var bestValue = -Double.infinity
        for (index, value) in values.enumerated() where value > bestValue {
            best = index
            bestValue = value
        }
        return best
    }
}
