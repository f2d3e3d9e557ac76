import ActionLabTestSupport
import FeatureCache
import Foundation
import Manifest
import Models
import Sweeps
import Testing

@testable import Prediction

/// Acceptance on real skeletons: streams joined from UTD-MHAD's test-subject recordings (never
/// trained on), with the known boundaries as montage annotations
/// (`scripts/utd-mhad-streams.py`), predicted by a sliding-window model trained on the training
/// subjects (`experiments/utd-mhad-predict.json5`, shortened for CI; `scripts/predict-utd-mhad`
/// runs the full recipe and its numbers are in the README).
@Suite(.serialized) struct UTDMHADStreamTests {
    /// The CI form of the manifest: fewer epochs, windows every 10 frames.
    static func adjust(_ configuration: inout ExperimentConfiguration) {
        configuration.windows.stride = 10
        configuration.training.epochs = 12
    }

    struct Trained {
        let scratch: TemporaryDirectory
        /// The trained trial's folder.
        let trial: URL

        var model: PredictionModel { get throws { try PredictionModel(folder: trial) } }
        var cache: FeatureCache { get throws { try FeatureCache(directory: scratch.file("cache")) } }
    }

    static let trained: Result<Trained, any Error> = Result {
        _ = try TestData.utdMHADSkeletonFolder()
        let scratch = try TemporaryDirectory(prefix: "actionlab-utd-streams")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/utd-mhad-predict.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            adjust(&$0)
        }
        let folder = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let trial = folder.appendingPathComponent("trials/\(try #require(plan.trials.first).id)")
        return Trained(scratch: scratch, trial: trial)
    }

    /// Writes streams of `kind` with the script and returns their inputs (annotated).
    static func streams(_ kind: String, in folder: URL, extra: [String] = [], model: PredictionModel) throws -> [PredictionInput] {
        let skeletons = try TestData.utdMHADSkeletonFolder()
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/utd-mhad-streams.py"), encoding: .utf8)
        let result = try PythonOracle.run(script, arguments: [skeletons.path, folder.path, "--kind", kind] + extra)
        try #require(result.status == 0, "utd-mhad-streams.py: \(result.errorOutput)")
        return try PredictionInputResolver(configuration: model.trained.configuration)
            .inputs(for: [folder.appendingPathComponent("annotations.csv")])
    }

    /// `scripts/predict-utd-mhad`'s settings: stride 5 and threshold 0.5 fixed beforehand; the
    /// smoothing window, hold count and refractory time chosen there on streams of held-out
    /// training subject 7, never on the test subjects: one choice for segmentation (best F1@0.50),
    /// one for counting (most exact event counts).
    static let settings = PredictionSettings(stride: 5, confidenceThreshold: 0.5, minimumPoseFraction: 0.6)
    static let segmentation = PostprocessingSettings(smoothingWindow: 1, holdCount: 4, refractoryTime: 0.5)
    static let counting = PostprocessingSettings(smoothingWindow: 1, holdCount: 1, refractoryTime: 1)

    static func analyse(_ inputs: [PredictionInput], _ model: PredictionModel, cache: FeatureCache, postprocessing: PostprocessingSettings) throws -> [StreamAnalysis] {
        let settings = Self.settings
        let run = PredictionRun(model: model, settings: settings, cache: cache)
        return try inputs.flatMap { input in
            try run.predict(input).map {
                try StreamAnalysis(stream: $0, settings: settings, postprocessing: postprocessing, layout: model.layout)
            }
        }
    }

    /// 16 streams of 5 different actions each: the scores are reported, and hysteresis (and the
    /// moving average, when chosen) improves the segmental F1 at IoU 0.50 and the edit score
    /// over the raw predictions.
    @Test func smoothingImprovesSegmentalF1OnStreamsOfDifferentActions() throws {
        let trained = try Self.trained.get()
        let model = try trained.model
        let inputs = try Self.streams("mixed", in: trained.scratch.file("mixed"), model: model)
        // Five recordings each, four where the dataset lacks one of them (three were discarded).
        #expect(inputs.count == 16 && inputs.allSatisfy { (4...5).contains($0.annotations.count) })
        let analyses = try Self.analyse(inputs, model, cache: try trained.cache, postprocessing: Self.segmentation)
        let summary = RunPredictionSummary(analyses: analyses, failures: [], modelOrigin: model.origin)
        let pooled = try #require(try summary.pooledScores())
        print("UTD-MHAD mixed streams:\n" + PredictionReport.scoreTable([("raw", pooled.raw), ("smoothed", pooled.smoothed)]).markdown)
        let raw = try #require(pooled.raw.f1(at: 0.5)), smoothed = try #require(pooled.smoothed.f1(at: 0.5))
        #expect(smoothed > raw, "F1@0.50 raw \(raw), smoothed \(smoothed)")
        #expect(pooled.smoothed.frameAccuracy >= 50, "frame accuracy \(pooled.smoothed.frameAccuracy)")
        #expect(pooled.smoothed.editScore > pooled.raw.editScore)

        // An annotated label that is not one of the model's classes is said, not scored silently.
        var foreign = try #require(inputs.first)
        foreign.annotations[0].label = "dance"
        let stream = try #require(try PredictionRun(model: model, settings: Self.settings, cache: try trained.cache).predict(foreign).first)
        #expect(stream.notes.contains { $0.hasPrefix("the annotated label 'dance' (") && $0.contains(") is not one of the model's classes (") },
                "\(stream.notes)")
    }

    /// Streams of one subject's K recordings of one action, a second of standing still after
    /// each: the events of that action (what a counter of squats counts) equal K. Issue 12 asks
    /// for 90 % of streams; the full recipe reaches 85.2 % (README), bounded by the model: a
    /// stream is exact only if all K performances are recognised, and the model recognises 94 %
    /// of recordings (0.94⁴ ≈ 0.78). The CI model is shorter-trained, so the bar here is 75 %.
    @Test func eventCountsMatchThePerformancesInThreeOfFourStreams() throws {
        let trained = try Self.trained.get()
        let model = try trained.model
        let inputs = try Self.streams("repeat", in: trained.scratch.file("repeat"), model: model)
        #expect(inputs.count >= 100)
        let analyses = try Self.analyse(inputs, model, cache: try trained.cache, postprocessing: Self.counting)
        let exact = analyses.filter { analysis in
            let annotations = analysis.stream.input.annotations
            guard let action = annotations.first?.label else { return false }
            return analysis.events.count(of: action) == annotations.count
        }
        let share = Double(exact.count) / Double(analyses.count)
        print("UTD-MHAD repeat streams: event count exact in \(exact.count) of \(analyses.count) (\(share))")
        #expect(share >= 0.75, "event count equals K in \(exact.count) of \(analyses.count) streams")
    }
}
