import ActionLabTestSupport
import Foundation
import JSON5
import Manifest
import ManifestSchema
import Reports
import Sweeps
import Testing
import Training

/// A trial whose loss becomes non-finite stops at once and is recorded as diverged, and the
/// manifest limits hold in every grid cell (issue 15, items 6 and 7).
@Suite struct SweepLimitsTests {
    /// BasicMotions with a tiny MLP and a learning rate a Float holds but the loss does not survive;
    /// with `optimizer`, the manifest's TCN trained by it at momentum 0.99.
    static func plan(scratch: URL, learningRate: Double, optimizer: TrainingConfiguration.Optimizer? = nil) throws -> SweepPlan {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        return try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting { configuration in
            configuration.features.cache = scratch.appendingPathComponent("cache")
            configuration.output.directory = scratch.appendingPathComponent("reports")
            configuration.training.seeds = [1]
            configuration.training.epochs = 5
            configuration.training.learningRate = learningRate
            if let optimizer {
                // The manifest's TCN, whose input normalization's scale overflows in the first step.
                configuration.training.optimizer = optimizer
                configuration.training.momentum = 0.99
            } else {
                configuration.model = .mlp(hiddenUnits: 8)
            }
        }
    }

    /// Before: training ran all epochs on NaN weights, then failed with "cannot encode JSON: -nan".
    /// With SGD at 1e30 (momentum 0.99) a step overflows the weights while its loss is still
    /// finite; before, such a trial finished, was scored on NaN probabilities and ranked first, and
    /// only `export` refused its weights.
    @Test(arguments: [(3e38, nil), (1e30, TrainingConfiguration.Optimizer.sgd)])
    func nonFiniteLossOrWeightsStopTheTrialAsDiverged(learningRate: Double, optimizer: TrainingConfiguration.Optimizer?) throws {
        let scratch = try TemporaryDirectory(prefix: "diverged")
        let plan = try Self.plan(scratch: scratch.url, learningRate: learningRate, optimizer: optimizer)
        let trial = try #require(plan.trials.first)
        let lines = LogLines()
        let outcome = try TrialRunner(log: lines.append).run(trial, in: scratch.url)
        let divergence = try #require(outcome.diverged)
        #expect(divergence.epoch <= 2, "stops at once, not after \(trial.configuration.training.epochs) epochs")
        // Either the loss is not finite, or it still was and a weight tensor is named (SGD at
        // 1e30: the first step's weights overflow while its loss, about 1e29, is finite).
        #expect(!divergence.loss.isFinite || divergence.tensor != nil, "\(divergence)")
        if optimizer == .sgd { #expect(divergence.tensor != nil && divergence.loss.isFinite, "\(divergence)") }
        if let tensor = divergence.tensor {
            #expect(divergence.split == "train" && divergence.batch != nil)
            #expect(lines.lines.contains { $0.contains("diverged, weights '\(tensor)' not finite after epoch") }, "\(lines.lines)")
        } else {
            #expect(lines.lines.contains { $0.contains("diverged, loss") }, "\(lines.lines)")
        }
        #expect(outcome.epochs == divergence.epoch - 1, "the history holds the finite epochs only")
        #expect(outcome.splits.isEmpty, "a diverged trial is not scored")

        let folder = TrialRunner.folder(of: trial, in: scratch.url)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("weights.h5").path))
        let marker = try String(contentsOf: folder.appendingPathComponent(TrialRunner.completionMarker), encoding: .utf8)
        #expect(marker.contains("\"diverged\""))
        #expect(marker.contains("\"loss\" : \"\(divergence.lossText)\""), "\(marker)")
        #expect(TrialRunner.outcome(of: trial, in: scratch.url) == outcome, "the marker reads back, NaN and all")
        // `status` says finished and diverged (it said finished alone, and export then said the trial lacked weights.h5).
        try JSONEncoder().encode(SweepRecord(plan: plan)).write(to: scratch.url.appendingPathComponent(SweepRecord.fileName))
        let status = try SweepStatus(folder: scratch.url)
        #expect(status.lines.first?.hasSuffix("finished (diverged: \(divergence); no weights, not scored)") == true, "\(status.lines)")

        let leaderboard = Leaderboard(metric: plan.sweep.selection, parameters: [], outcomes: [outcome], timings: [:])
        let csv = leaderboard.csvTable.csv
        #expect(csv.split(separator: "\n").first?.hasSuffix(",diverged_seeds,training_seconds_mean") == true)
        #expect(csv.split(separator: "\n").last?.hasSuffix(",1,") == true, "\(csv)")
        #expect(leaderboard.markdownTable.markdown.contains("1 (1 diverged)"))
        let summary = SweepSummary(plan: plan, leaderboard: leaderboard, missing: 0).markdown
        #expect(summary.contains("**1 of 1 trials diverged**"), "\(summary)")
        #expect(summary.contains("| \(divergence.epoch) |"))
        #expect(summary.contains("none (diverged)"))
    }

    @Test func finiteTrainingIsNotDiverged() throws {
        let scratch = try TemporaryDirectory(prefix: "finite")
        let plan = try Self.plan(scratch: scratch.url, learningRate: 1e-3)
        let trial = try #require(plan.trials.first)
        let outcome = try TrialRunner().run(trial, in: scratch.url)
        #expect(outcome.diverged == nil)
        #expect(outcome.epochs == 5)
        let marker = try String(contentsOf: TrialRunner.folder(of: trial, in: scratch.url).appendingPathComponent("complete.json"), encoding: .utf8)
        #expect(!marker.contains("diverged"))
    }

    /// Item 6 in `sweep.grid`: each cell is checked like the manifest, at the grid value.
    @Test func gridValueThatOverflowsAWindowIsReported() throws {
        let scratch = try TemporaryDirectory(prefix: "grid")
        let data = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let text = """
            {
              name: 'x',
              dataset: { sources: [{ format: 'uea', path: '\(data.path)' }] },
              features: { layout: 'accelerometer-gyroscope', frameRate: 10 },
              sweep: { grid: { 'windows.duration': [1, 1e18] } },
            }
            """
        let error = #expect(throws: ManifestError.self) {
            try SweepPlan.parse(text: text, fileName: "experiments/x.json5", baseDirectory: scratch.url)
        }
        let description = error?.description ?? ""
        #expect(description.hasPrefix("experiments/x.json5:5:"), "\(description)")
        #expect(description.contains("a window of 10000000000000000000 frames") || description.contains("more than 10000"), "\(description)")
    }

    /// Before: a 10 MB label key passed, and `validate` spent minutes putting it into the resolved
    /// configuration of every trial of a 27-trial sweep (found by scripts/fuzz-manifests.py).
    @Test func aKeyOrStringPastTheLimitIsRejectedAtItsPlace() throws {
        let long = String(repeating: "y", count: ManifestStringLimit.maximumBytes + 1)
        let text = """
            {
              name: "long",
              dataset: { sources: [{ format: "uea", path: "x.ts" }], labels: { "\(long)": "a" } },
              features: { layout: "univariate", frameRate: 10 },
            }
            """
        #expect(throws: JSON5Error(
            filePath: "long.json5", location: SourceLocation(line: 3, column: 68),
            message: "a key of 65537 bytes ('\(EchoedText.shortened(long))'): manifest keys and strings are limited to 65536 bytes")) {
            try SweepPlan.parse(text: text, fileName: "long.json5", baseDirectory: URL(fileURLWithPath: "/tmp"))
        }
        let longValue = text.replacingOccurrences(of: "{ \"\(long)\": \"a\" }", with: "{ a: \"\(long)\" }")
        do {
            _ = try SweepPlan.parse(text: longValue, fileName: "long.json5", baseDirectory: URL(fileURLWithPath: "/tmp"))
            Issue.record("a 65,537-byte string was accepted")
        } catch let error as JSON5Error {
            #expect(error.message.hasPrefix("a string of 65537 bytes") && error.line == 3, "\(error)")
        }
    }

    /// A key given twice is one of a manifest's problems, reported with the others at once; before,
    /// it was the only one reported, and fixing it revealed the next. The first definition is the
    /// one checked.
    @Test func aDuplicateKeyIsReportedWithTheOtherProblems() throws {
        let text = """
            {
              name: "x",
              name: "y",
              dataset: { sources: [{ format: "csv", path: "/nonexistent-actionlab-data" }] },
              windows: { size: -3, size: 60 },
              model: { kind: "nope" },
            }
            """
        let error = #expect(throws: ManifestError.self) {
            try SweepPlan.parse(text: text, fileName: "experiments/x.json5", baseDirectory: URL(fileURLWithPath: "/tmp"))
        }
        let lines = (error?.description ?? "").split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("x.json5:3:3: name: duplicate key (first defined at line 2, column 3)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("x.json5:5:24: windows.size: duplicate key (first defined at line 5, column 14)") }, "\(lines)")
        #expect(lines.contains { $0.contains("x.json5:5:20: windows.size:") }, "the first definition, -3, is checked: \(lines)")
        #expect(lines.contains { $0.contains("dataset.sources[0].path") }, "\(lines)")
        #expect(lines.contains { $0.contains("model.kind") }, "\(lines)")
    }
}
