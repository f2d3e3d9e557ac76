import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import NeuralNetwork
import Randomness
import Sweeps
import SyntheticData
import Testing
import Training

/// A data set streamed from the feature cache gives the same windows, batches and trained weights
/// as the same data set held in memory.
@Suite struct StreamedWindowsTests {
    /// A small SYNTHETIC data set (6 classes × 4 sequences of 3 s at 30 fps) under
    /// `experiments/synthetic.json5`, with the given window frame rate and stride, loaded in
    /// memory and streamed.
    private static func loadBothWays(
        in scratch: TemporaryDirectory, windowFrameRate: Double = 30, stride: Int = 20
    ) throws -> (configuration: ExperimentConfiguration, inMemory: LoadedDataset, streamed: LoadedDataset) {
        try SyntheticDataset(sequencesPerClass: 4, seed: 3, duration: 3).write(to: scratch.file("data/synthetic"))
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/synthetic.json5")
        let configuration = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            $0.windows.frameRate = windowFrameRate
            $0.windows.size = Int(2 * windowFrameRate)
            $0.windows.stride = stride
            $0.training.epochs = 2
            $0.training.batchSize = 8
        }.base
        let cache = try FeatureCache(directory: configuration.features.cache)
        let inMemory = try DatasetLoader(configuration: configuration, cache: cache).load()
        var streaming = DatasetLoader(configuration: configuration, cache: cache)
        streaming.inMemoryLimit = 0
        let streamed = try streaming.load()
        return (configuration, inMemory, streamed)
    }

    private static func windows(of dataset: LoadedDataset, split: String, _ configuration: ExperimentConfiguration) throws -> WindowSet {
        try WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding,
            treatsZeroJointsAsUndetected: configuration.features.layout.marksUndetectedJointsWithZeros
        ).windows(of: dataset.sequences(of: split), labels: dataset.labels)
    }

    /// Every window of every split is the same, bit for bit, at the recordings' own frame rate and
    /// resampled to another.
    @Test(arguments: [30.0, 20.0]) func streamedWindowsEqualInMemoryWindows(frameRate: Double) throws {
        let scratch = try TemporaryDirectory(prefix: "streamed-windows")
        let (configuration, inMemory, streamed) = try Self.loadBothWays(in: scratch, windowFrameRate: frameRate)
        #expect(!inMemory.isStreamed)
        #expect(streamed.isStreamed)
        #expect(streamed.labels == inMemory.labels)
        for split in ["train", "validation"] {
            let expected = try Self.windows(of: inMemory, split: split, configuration)
            let actual = try Self.windows(of: streamed, split: split, configuration)
            #expect(!expected.isStreamed && actual.isStreamed)
            #expect(actual.count == expected.count && expected.count > 0)
            #expect(actual.values.isEmpty)
            #expect(actual.labelIndices == expected.labelIndices)
            #expect(actual.sequenceIndices == expected.sequenceIndices)
            #expect(actual.startFrames == expected.startFrames)
            #expect(actual.sequenceIDs == expected.sequenceIDs)
            // Shuffled order, as training reads them, through the least-recently-used cache.
            var order = Array(0..<actual.count)
            var generator = SeededGenerator(seed: 7)
            generator.shuffle(&order)
            for window in order {
                let streamedValues = try actual.window(at: window)
                let inMemoryValues = try expected.window(at: window)
                #expect(streamedValues.map(\.bitPattern) == inMemoryValues.map(\.bitPattern), "window \(window) of \(split)")
            }
        }
    }

    /// Training and evaluation on streamed windows give bit-identical weights, curves and metrics.
    @Test func trainingIsIdenticalEitherWay() throws {
        let scratch = try TemporaryDirectory(prefix: "streamed-training")
        let (configuration, inMemory, streamed) = try Self.loadBothWays(in: scratch)
        var results: [(weights: [[UInt32]], losses: [Double], accuracy: Double)] = []
        for dataset in [inMemory, streamed] {
            let train = try Self.windows(of: dataset, split: "train", configuration)
            let validation = try Self.windows(of: dataset, split: "validation", configuration)
            let result = try Trainer(configuration: configuration).fit(train: train, validation: validation, seed: 1)
            let metrics = try Evaluator(batchSize: 8, aggregation: .mean).evaluate(result.model, on: validation)
            results.append((
                result.model.stateDictionary().map { $0.tensor.values.map(\.bitPattern) },
                result.history.flatMap { [$0.trainLoss, $0.validationLoss ?? .nan] },
                metrics.window.accuracy))
        }
        #expect(results[0].weights == results[1].weights)
        #expect(results[0].losses.map(\.bitPattern) == results[1].losses.map(\.bitPattern))
        #expect(results[0].accuracy == results[1].accuracy)
    }
}
