import Foundation
import NeuralNetwork

/// Trains a classifier on windows with mini-batch gradient descent, reproducibly.
///
/// Every random choice derives from the run's seed through `SeededGenerator`'s named streams:
/// weight initialization (`"initialization"`), the order of windows in each epoch
/// (`"shuffle"`, epoch), each window's augmentation (`"augmentation"`, epoch, window index)
/// and dropout masks (`"dropout:<layer path>"`, epoch, batch). With BLAS on a fixed thread
/// count, the same windows, configuration and seed give bit-identical weights.
public struct Trainer: Sendable {
    /// Model, optimizer and schedule settings.
    public var configuration: ExperimentConfiguration

    public init(configuration: ExperimentConfiguration) {
        self.configuration = configuration
    }

    /// The outcome of `fit`.
    public struct Result {
        /// The trained model, in evaluation mode's hands from here on.
        public var model: any Classifier
        /// One record per epoch.
        public var history: [EpochRecord]
    }

    /// Trains a fresh model on `train`, scoring `validation` after each epoch.
    ///
    /// - Parameters:
    ///   - train: Training windows `[N, T, C, J]`, in memory or streamed; must not be empty.
    ///   - validation: Validation windows, or nil.
    ///   - seed: The run's seed.
    ///   - onEpoch: Called after each epoch with its record (for progress output).
    /// - Throws: `ExperimentError.emptySplit` if `train` has no windows, `FeatureCacheError` if a
    ///   streamed window cannot be read.
    public func fit(
        train: WindowSet, validation: WindowSet?, seed: Int, onEpoch: (EpochRecord) -> Void = { _ in }
    ) throws -> Result {
        guard train.count > 0 else {
            throw ExperimentError.emptySplit("train", reason: "no sequence gave a window; check windows.size and windows.padding")
        }
        let settings = configuration.training
        let seed = UInt64(seed)
        var initialization = SeededGenerator(seed: seed, purpose: "initialization")
        let model = try ModelFactory.make(
            configuration.model, layout: configuration.features.layout, classCount: train.labels.count,
            using: &initialization)
        let optimizer = OptimizerFactory.make(settings)
        let augmentation = try AugmentationPipeline(
            name: configuration.augmentation.pipeline, steps: configuration.augmentation.steps, layout: configuration.features.layout)
        let evaluator = Evaluator(batchSize: settings.batchSize, aggregation: .mean)
        var order = Array(0..<train.count)
        var history: [EpochRecord] = []
        for epoch in 1...settings.epochs {
            var shuffling = SeededGenerator(seed: seed, purpose: "shuffle", epoch: epoch)
            shuffling.shuffle(&order)
            var lossSum = 0.0
            var correct = 0
            for (batchIndex, start) in Swift.stride(from: 0, to: order.count, by: settings.batchSize).enumerated() {
                let indices = order[start..<min(start + settings.batchSize, order.count)]
                let labels = BatchAssembler.labels(train, indices: indices)
                model.seedDropout(seed: seed, epoch: epoch, batch: batchIndex)
                let augment: ((Int, inout [Float]) -> Void)? = augmentation.isIdentity ? nil : { window, values in
                    augmentation.apply(to: &values, seed: Int(seed), epoch: epoch, index: window)
                }
                let logits = model.forward(try BatchAssembler.inputs(train, indices: indices, augment: augment), training: true)
                let result = softmaxCrossEntropy(
                    logits: logits, labels: labels, labelSmoothing: Float(settings.labelSmoothing))
                zeroGradients(model.parameters)
                _ = model.backward(result.gradient)
                optimizer.step(parameters: model.parameters)
                lossSum += Double(result.loss) * Double(indices.count)
                let classCount = train.labels.count
                for (row, label) in labels.enumerated() {
                    let scores = result.probabilities.values[(row * classCount)..<((row + 1) * classCount)]
                    if Evaluator.argmax(scores.map(Double.init)) == label { correct += 1 }
                }
            }
            var record = EpochRecord(
                epoch: epoch, trainLoss: lossSum / Double(order.count),
                trainAccuracy: Double(correct) / Double(order.count))
            if let validation, validation.count > 0 {
                let (probabilities, loss) = try evaluator.predict(model, on: validation)
                let metrics = evaluator.metrics(probabilities: probabilities, loss: loss, windows: validation)
                record.validationLoss = loss
                record.validationAccuracy = metrics.window.accuracy
            }
            history.append(record)
            onEpoch(record)
        }
        return Result(model: model, history: history)
    }
}
