import Augmentation
import Dataset
import Foundation
import Manifest
import NeuralNetwork
import Randomness

/// Trains a classifier on windows with mini-batch gradient descent, reproducibly and resumably.
///
/// Every random choice derives from the run's seed through `SeededGenerator`'s named streams:
/// weight initialization (`"initialization"`), the order of windows in each epoch
/// (`"shuffle"`, epoch), each window's augmentation (`"augmentation"`, epoch, window index)
/// and dropout masks (`"dropout:<layer path>"`, epoch, batch). With BLAS on a fixed thread
/// count, the same windows, configuration and seed give bit-identical weights.
///
/// Each epoch: the learning rate is set from `training.schedule` (per epoch), then for every
/// mini-batch the loss (with `training.classWeights` and label smoothing) is back-propagated,
/// the gradients are clipped to `training.gradientClipNorm` if set, and the optimizer steps.
/// After the epoch the validation set is scored, `training.earlyStopping` is updated, and every
/// `training.checkpointEvery` epochs a checkpoint is written. Because every stream depends only
/// on (seed, purpose, epoch, index), a run resumed from a checkpoint at an epoch boundary
/// continues bit-identically to an uninterrupted one. A non-finite loss (a mini-batch's, or the
/// validation set's) stops the run at once, recorded in ``Result/divergence``.
public struct Trainer: Sendable {
    /// Model, optimizer and schedule settings.
    public var configuration: ExperimentConfiguration

    public init(configuration: ExperimentConfiguration) {
        self.configuration = configuration
    }

    /// The outcome of `fit`.
    public struct Result {
        /// The trained model: the last epoch's weights, or the best validation epoch's with
        /// `training.weights: "bestValidation"` (or `restoreBestWeights`).
        public var model: any Classifier
        /// One record per epoch trained (fewer than `training.epochs` after early stopping).
        public var history: [EpochRecord]
        /// The 1-based epoch whose weights ``model`` holds.
        public var savedEpoch: Int
        /// Whether early stopping ended the run before `training.epochs`.
        public var stoppedEarly: Bool
        /// The epoch of the checkpoint the run resumed from, or nil for a fresh run.
        public var resumedFromEpoch: Int?
        /// Seconds spent in the training loop, including those before the checkpoint a resumed
        /// run started from (as far as the checkpoint recorded them).
        public var trainingSeconds: Double
        /// The part of ``trainingSeconds`` spent before this run, by the run that wrote the checkpoint.
        public var trainingSecondsBeforeResuming: Double
        /// Where the loss became non-finite and training stopped, or nil if it stayed finite.
        /// ``history`` then ends with the last finite epoch, and ``model``'s weights are not to
        /// be scored.
        public var divergence: Divergence?
    }

    /// Trains a fresh model on `train` (or resumes one from `checkpoint`), scoring `validation`
    /// after each epoch.
    ///
    /// - Parameters:
    ///   - train: Training windows `[N, T, C, J]`, in memory or streamed; must not be empty.
    ///   - validation: Validation windows, or nil.
    ///   - seed: The run's seed.
    ///   - checkpoint: Where to write checkpoints every `training.checkpointEvery` epochs, or nil
    ///     for none. If the file exists, training resumes from it.
    ///   - onEpoch: Called after each epoch (and its checkpoint) with its record; an error it
    ///     throws stops training and is rethrown (tests use it to simulate a kill).
    ///   - onBatch: Called after each training mini-batch with the epoch, the number of its batches
    ///     done so far (1-based) and their count, for progress displays.
    /// - Throws: `DatasetError.emptySplit` if `train` has no windows,
    ///   `.missingValidation` for early stopping without validation windows,
    ///   `.invalidClassWeights`, `.incompatibleCheckpoint`, checkpoint write errors, and what
    ///   `onEpoch` throws, `FeatureCacheError` if a streamed window cannot be read.
    public func fit(
        train: WindowSet, validation: WindowSet?, seed: Int, checkpoint: URL? = nil,
        onEpoch: (EpochRecord) throws -> Void = { _ in }, onBatch: (_ epoch: Int, _ done: Int, _ batches: Int) -> Void = { _, _, _ in }
    ) throws -> Result {
        guard train.count > 0 else {
            throw DatasetError.emptySplit("train", reason: "no sequence gave a window; check windows.size and windows.padding")
        }
        let settings = configuration.training
        let validation = validation.flatMap { $0.count > 0 ? $0 : nil }
        if settings.earlyStopping != nil, validation == nil {
            throw TrainingError.missingValidation(reason: "training.earlyStopping monitors the validation set")
        }
        let keepsBest = settings.keptWeights == .bestValidation
        if keepsBest, validation == nil {
            throw TrainingError.missingValidation(reason: "training.weights 'bestValidation' picks the epoch by the validation set")
        }
        let seed = UInt64(seed)
        var initialization = SeededGenerator(seed: seed, purpose: "initialization")
        let model = try configuration.model.makeClassifier(
            layout: configuration.features.layout, windowSize: configuration.windows.size, classCount: train.labels.count,
            using: &initialization)
        let optimizer = OptimizerFactory.make(settings)
        let schedule = settings.schedule.schedule(learningRate: settings.learningRate, epochs: settings.epochs)
        let classWeights = try settings.classWeights.map { weighting in
            var counts = [Int](repeating: 0, count: train.labels.count)
            for label in train.labelIndices { counts[label] += 1 }
            return try weighting.weights(labels: train.labels, counts: counts)
        }
        let augmentation = try AugmentationPipeline(
            name: configuration.augmentation.pipeline, steps: configuration.augmentation.steps, layout: configuration.features.layout)
        let evaluator = Evaluator(batchSize: settings.batchSize, aggregation: .mean)

        // Without early stopping, the best validation epoch is tracked by a tracker that never stops.
        let tracked = settings.earlyStopping ?? (keepsBest ? EarlyStopping.bestEpochTracking : nil)
        var progress = TrainingProgress(epoch: 0, history: [], earlyStopping: tracked.map(EarlyStopping.init))
        var bestState: [(name: String, tensor: Tensor)]?
        if let checkpoint, FileManager.default.fileExists(atPath: checkpoint.path) {
            (progress, bestState) = try Self.restore(from: checkpoint, model: model, optimizer: optimizer)
        }
        let resumedFromEpoch = progress.epoch > 0 ? progress.epoch : nil
        let secondsBefore = progress.trainingSeconds ?? 0
        let started = ContinuousClock.now
        func secondsSoFar() -> Double {
            let elapsed = ContinuousClock.now - started
            return secondsBefore + Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        var order = Array(0..<train.count)
        // Each epoch shuffles the previous epoch's order: replay the finished epochs' shuffles.
        for epoch in Swift.stride(from: 1, through: progress.epoch, by: 1) {
            var shuffling = SeededGenerator(seed: seed, purpose: "shuffle", epoch: epoch)
            shuffling.shuffle(&order)
        }
        var stopped = progress.earlyStopping?.shouldStop ?? false
        var divergence: Divergence?
        var epoch = progress.epoch + 1
        let batchCount = (order.count + settings.batchSize - 1) / settings.batchSize
        let parameters = model.parameters
        epochs: while epoch <= settings.epochs && !stopped {
            optimizer.learningRate = Float(schedule.learningRate(epoch: epoch - 1))
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
                    logits: logits, labels: labels, classWeights: classWeights, labelSmoothing: Float(settings.labelSmoothing))
                guard result.loss.isFinite else {
                    divergence = Divergence(epoch: epoch, batch: batchIndex, split: "train", loss: Double(result.loss))
                    break epochs
                }
                if let tensor = applyGradient(
                    result.gradient, to: model, parameters: parameters, optimizer: optimizer,
                    clippingNormAt: settings.gradientClipNorm.map(Float.init)) {
                    divergence = Divergence(epoch: epoch, batch: batchIndex, split: "train", loss: Double(result.loss), tensor: tensor)
                    break epochs
                }
                onBatch(epoch, batchIndex + 1, batchCount)
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
            if let validation {
                let (probabilities, loss) = try evaluator.predict(model, on: validation)
                let metrics = evaluator.metrics(probabilities: probabilities, loss: loss, windows: validation)
                guard loss.isFinite else {
                    divergence = Divergence(epoch: epoch, batch: nil, split: "validation", loss: loss)
                    break epochs
                }
                record.validationLoss = loss
                record.validationAccuracy = metrics.window.accuracy
            }
            if progress.earlyStopping?.update(with: record) == true, keepsBest {
                bestState = model.stateDictionary()
            }
            stopped = progress.earlyStopping?.shouldStop ?? false
            progress.history.append(record)
            progress.epoch = epoch
            if let checkpoint, epoch % settings.checkpointEvery == 0, epoch < settings.epochs, !stopped {
                progress.trainingSeconds = secondsSoFar()
                try Self.save(progress, bestState: bestState, model: model, optimizer: optimizer, to: checkpoint)
            }
            try onEpoch(record)
            epoch += 1
        }
        var savedEpoch = progress.epoch
        if keepsBest, let bestState, let best = progress.earlyStopping?.bestEpoch {
            try model.load(stateDictionary: bestState)
            savedEpoch = best
        }
        return Result(
            model: model, history: progress.history, savedEpoch: savedEpoch, stoppedEarly: stopped && progress.epoch < settings.epochs,
            resumedFromEpoch: resumedFromEpoch, trainingSeconds: secondsSoFar(), trainingSecondsBeforeResuming: secondsBefore,
            divergence: divergence)
    }

    /// Writes the model, the optimizer, the best weights and the progress atomically.
    private static func save(
        _ progress: TrainingProgress, bestState: [(name: String, tensor: Tensor)]?, model: any Classifier,
        optimizer: any Optimizer, to url: URL
    ) throws {
        let json = String(decoding: try JSONEncoder().encode(progress), as: UTF8.self)
        try Checkpoint(
            model: model.stateDictionary(), optimizer: optimizer.stateDictionary(), bestModel: bestState,
            metadata: ["epoch": "\(progress.epoch)", TrainingProgress.metadataKey: json]
        ).write(to: url)
    }

    /// Loads a checkpoint written by ``save(_:bestState:model:optimizer:to:)`` into `model` and `optimizer`.
    private static func restore(
        from url: URL, model: any Classifier, optimizer: any Optimizer
    ) throws -> (TrainingProgress, [(name: String, tensor: Tensor)]?) {
        let checkpoint = try Checkpoint(contentsOf: url)
        guard let json = checkpoint.metadata[TrainingProgress.metadataKey],
              let progress = try? JSONDecoder().decode(TrainingProgress.self, from: Data(json.utf8)) else {
            throw TrainingError.incompatibleCheckpoint(path: url.path, reason: "no readable '\(TrainingProgress.metadataKey)' attribute")
        }
        guard let optimizerState = checkpoint.optimizer else {
            throw TrainingError.incompatibleCheckpoint(path: url.path, reason: "no optimizer state")
        }
        do {
            try model.load(stateDictionary: checkpoint.model)
            try optimizer.load(stateDictionary: optimizerState)
        } catch {
            throw TrainingError.incompatibleCheckpoint(path: url.path, reason: "\(error)")
        }
        return (progress, checkpoint.bestModel)
    }
}
