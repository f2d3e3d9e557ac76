import ActionLabTestSupport
import Dataset
import Export
import FeatureCache
import Foundation
import Manifest
import Models
import Pose
import Sweeps
import SyntheticData
import Testing
import Training

@testable import Prediction

/// The predictor gives training's windows and the trial's own probabilities, and applies
/// Create ML's runtime rules, on a small model trained on SYNTHETIC Vision-18 motions.
@Suite(.serialized) struct PredictorTests {
    /// A trained sweep folder (2 epochs of a small TCN, stride 15 so windows overlap), its plan
    /// and its exported model, made once for the suite.
    struct Trained {
        let scratch: TemporaryDirectory
        let plan: SweepPlan
        let report: URL
        let export: URL
    }

    static let trained: Result<Trained, any Error> = Result {
        let scratch = try TemporaryDirectory()
        let dataset = SyntheticDataset(actions: Array(SyntheticAction.defaultSet.prefix(3)), sequencesPerClass: 6, seed: 5)
        try dataset.write(to: scratch.file("data/synthetic"))
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/synthetic.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            $0.windows.stride = 15
            $0.training.epochs = 2
            $0.training.seeds = [1]
            $0.model = .tcn(channels: [8], kernelSizes: [3], normalizeInput: true)
        }
        let report = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let export = scratch.file("export")
        _ = try ModelExporter().export(from: report, to: export)
        return Trained(scratch: scratch, plan: plan, report: report, export: export)
    }

    static func validationSequences(_ trained: Trained) throws -> (LoadedDataset, [DatasetSequence]) {
        let configuration = trained.plan.base
        let dataset = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        return (dataset, dataset.validation)
    }

    @Test func predictionsAreTheTrialsOwnWindowProbabilitiesBitForBit() throws {
        let trained = try Self.trained.get()
        let configuration = trained.plan.base
        let (dataset, sequences) = try Self.validationSequences(trained)
        #expect(!sequences.isEmpty)
        // The export folder, the trial folder and the sweep folder give the same model.
        let fromExport = try PredictionModel(folder: trained.export)
        let fromSweep = try PredictionModel(folder: trained.report)
        #expect(fromSweep.origin.contains("trial trials/"))
        let trialFolder = try TrialSelection.select(in: trained.report).chosen.folder.url
        let fromTrial = try PredictionModel(folder: trialFolder)
        let settings = PredictionSettings(stride: configuration.windows.stride, confidenceThreshold: 0.6, minimumPoseFraction: 0.6)
        let cache = try FeatureCache(directory: configuration.features.cache)
        let windows = try WindowBuilder(configuration.windows, layout: configuration.features.layout)
            .windows(of: sequences, labels: dataset.labels)
        // Window by window (batch 1) the bits are the evaluator's; in batches of 16 the matrix
        // products block differently, which may move the last bit.
        let expected = try Evaluator(batchSize: 1, aggregation: .mean).predict(try fromExport.trained.makeModel(), on: windows).probabilities
        let batched = try Evaluator(batchSize: 16, aggregation: .mean).predict(try fromExport.trained.makeModel(), on: windows).probabilities
        var predicted: [Float] = []
        for model in [fromExport, fromSweep, fromTrial] {
            let run = PredictionRun(model: model, settings: settings, cache: cache)
            var probabilities: [Float] = []
            for sequence in sequences {
                let input = PredictionInput(file: URL(fileURLWithPath: sequence.id), source: configuration.dataset.sources[0], origin: sequence.id)
                let stream = try run.predict(try sequence.poseSequence(), input: input, name: sequence.id)
                #expect(stream.predictions.map(\.startFrame) == WindowBuilder(configuration.windows, layout: configuration.features.layout)
                    .windowStarts(frameCount: try sequence.poseSequence().frameCount))
                probabilities += stream.predictions.flatMap(\.probabilities)
            }
            #expect(probabilities == expected, "\(model.origin)")
            #expect(zip(probabilities, batched).allSatisfy { abs($0 - $1) <= 1e-6 })
            if model.origin == fromExport.origin { predicted = probabilities }
        }
        // onnxruntime, on the export folder's model.onnx and the same windows, agrees with what
        // the predictor gave within 1e-5.
        guard try PythonOracle.requireModules(["h5py", "numpy", "onnx", "onnxruntime", "safetensors"]) else { return }
        let scratch = try TemporaryDirectory(prefix: "actionlab-predict-onnx")
        try littleEndianFloat32Data(windows.values).write(to: scratch.file("windows.f32"))
        try littleEndianFloat32Data(predicted).write(to: scratch.file("predicted.f32"))
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-onnx.py"), encoding: .utf8)
        let summary = try #require(try PythonOracle.json(script, arguments: [
            trained.export.path, scratch.file("windows.f32").path, "\(windows.count)", "\(windows.windowSize)",
            "\(windows.channelCount)", "\(windows.jointCount)", scratch.file("predicted.f32").path, "\(windows.labels.count)",
        ]) as? [String: Any])
        #expect(summary["windows"] as? Int == windows.count)
        let difference = try #require(summary["max_abs_difference"] as? Double)
        #expect(difference <= 1e-5, "\(summary)")
    }

    @Test func aStreamAtTwiceTheModelsFrameRateGivesTheSamePredictions() throws {
        let trained = try Self.trained.get()
        let (_, sequences) = try Self.validationSequences(trained)
        let model = try PredictionModel(folder: trained.export)
        let run = PredictionRun(model: model, settings: .createMLDefaults, cache: try FeatureCache(directory: trained.plan.base.features.cache))
        let sequence = try #require(sequences.first).poseSequence()
        // 60 fps: every 30 fps frame, and between each two an exact midpoint frame.
        var keypoints: [Float] = []
        var timestamps: [Double] = []
        let perFrame = sequence.valuesPerFrame
        for frame in 0..<sequence.frameCount {
            let values = sequence.keypoints[(frame * perFrame)..<((frame + 1) * perFrame)]
            keypoints += values
            timestamps.append(Double(frame) / 30)
            if frame + 1 < sequence.frameCount {
                let next = sequence.keypoints[((frame + 1) * perFrame)..<((frame + 2) * perFrame)]
                keypoints += zip(values, next).map { ($0 + $1) / 2 }
                timestamps.append((Double(frame) + 0.5) / 30)
            }
        }
        let doubled = PoseSequence(keypoints: keypoints, timestamps: timestamps, channelCount: 3, jointCount: 18, frameRate: 60)
        let input = PredictionInput(file: URL(fileURLWithPath: "stream"), source: trained.plan.base.dataset.sources[0], origin: "stream")
        let original = try run.predict(sequence, input: input, name: "30 fps")
        let resampled = try run.predict(doubled, input: input, name: "60 fps")
        #expect(resampled.frameRate == 30)
        #expect(resampled.predictions == original.predictions)
        #expect(original.predictions.count == (sequence.frameCount - 60) / 10 + 1)
    }

    @Test func createMLsRuntimeRulesStrideThresholdNoPersonAndPadding() throws {
        let trained = try Self.trained.get()
        let (_, sequences) = try Self.validationSequences(trained)
        let model = try PredictionModel(folder: trained.export)
        let sequence = try #require(sequences.first).poseSequence()
        let perFrame = sequence.valuesPerFrame
        func frames(_ count: Int, person: (Int) -> Bool) -> [(Double, [Float]?)] {
            (0..<count).map { frame in
                let source = frame % sequence.frameCount
                return (Double(frame) / 30, person(frame) ? Array(sequence.keypoints[(source * perFrame)..<((source + 1) * perFrame)]) : nil)
            }
        }
        func run(_ settings: PredictionSettings, _ input: [(Double, [Float]?)]) throws -> [WindowPrediction] {
            var predictor = try model.makePredictor(settings: settings)
            var predictions: [WindowPrediction] = []
            for (time, keypoints) in input { predictions += try predictor.append(timestamp: time, keypoints: keypoints) }
            return predictions + predictor.finish()
        }
        // Stride: a prediction every 10 frames once the first 60-frame window is full.
        let stream = try run(.createMLDefaults, frames(90) { _ in true })
        #expect(stream.map(\.startFrame) == [0, 10, 20, 30])
        #expect(stream.map(\.endTime) == [60, 70, 80, 90].map { Double($0) / 30 })
        let sums: [Float] = stream.map { $0.probabilities.reduce(0, +) }
        #expect(sums.allSatisfy { abs($0 - 1) < 1e-5 })
        #expect(stream.allSatisfy { $0.paddedFrames == 0 })
        // Threshold: every prediction below it is lowConfidence, every one at or above is ok.
        let strict = try run(PredictionSettings(stride: 10, confidenceThreshold: 0.999, minimumPoseFraction: 0.6), frames(90) { _ in true })
        #expect(strict.allSatisfy { ($0.status == .lowConfidence) == ($0.confidence < 0.999) })
        let lenient = try run(PredictionSettings(stride: 10, confidenceThreshold: 0, minimumPoseFraction: 0.6), frames(90) { _ in true })
        #expect(lenient.allSatisfy { $0.status == .ok })
        // No person: a person in only the first 30 of 90 frames; windows with under 60 % of
        // frames holding a pose say noPerson, and zero-filled frames count as no pose.
        let leaving = try run(.createMLDefaults, frames(90) { $0 < 30 })
        let expectedFractions: [Double] = [30, 20, 10, 0].map { $0 / 60 }
        #expect(leaving.map(\.poseFraction) == expectedFractions)
        #expect(leaving.allSatisfy { $0.status == .noPerson })
        // A 1-second stream: one window, padded with 30 zero frames as training pads.
        let short = try run(.createMLDefaults, frames(30) { _ in true })
        #expect(short.count == 1)
        #expect(short.first?.paddedFrames == 30)
        #expect(short.first?.poseFraction == 1)
        #expect(short.first?.endTime == 2)
        // Bad settings are refused before any frame.
        #expect(throws: PredictionError.self) { try model.makePredictor(settings: PredictionSettings(stride: 0, confidenceThreshold: 0.6, minimumPoseFraction: 0.6)) }
        #expect(throws: PredictionError.self) { try model.makePredictor(settings: PredictionSettings(stride: 1, confidenceThreshold: 1.5, minimumPoseFraction: 0.6)) }
    }

    /// A real video in which MediaPipe finds nobody: the lawn in the lower left of OpenCV's
    /// `vtest.avi` (a 320 × 196 crop of its first 4 s, where no one walks), through the input
    /// resolver, the feature cache and pose extraction as `actionlab predict` runs it.
    @Test func aRealVideoWithoutAPersonGivesOnlyNoPersonPredictions() throws {
        let trained = try Self.trained.get()
        let scratch = try TemporaryDirectory(prefix: "actionlab-noperson")
        let clip = scratch.file("lawn.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", try TestData.file("opencv/vtest.avi").path,
                            "-t", "4", "-vf", "crop=320:196:0:380", "-an", clip.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not cut the clip")
        let model = try PredictionModel(folder: trained.export)
        let run = PredictionRun(model: model, settings: .createMLDefaults, cache: try FeatureCache(directory: scratch.file("cache")))
        let inputs = try PredictionInputResolver(configuration: model.trained.configuration).inputs(for: [clip])
        let streams = try run.predict(try #require(inputs.first))
        let predictions = try #require(streams.first).predictions
        // 40 frames at 10 fps (0 to 3.9 s) resampled to the model's 30 fps: 118 frames, windows
        // of 60 every 10.
        #expect(predictions.count == 6)
        // MediaPipe's detector fires on some frames of the empty lawn (20-37 % of a window's
        // frames when measured); Create ML's rule, a pose in under 60 % of the frames, still
        // calls every window noPerson.
        #expect(predictions.allSatisfy { $0.status == .noPerson && $0.poseFraction < 0.6 },
                "\(predictions.map { ($0.status, $0.poseFraction) })")
    }
}
