import ActionLabTestSupport
import Foundation
import Manifest
import ManifestSchema
import NeuralNetwork
import Sweeps
import Testing

/// Trial ids hash what a trial computes, not where its files go: the same manifest gets the same
/// ids with another cache or output folder (another checkout, another machine), and a sweep folder
/// made under the earlier rule, whose ids also hashed those folders, still resumes under its own.
@Suite(.serialized) struct TrialIdentityTests {
    @Test func idsDependOnWhatATrialComputesNotWhereItsFilesGo() throws {
        let scratch = try TemporaryDirectory(prefix: "trial-identity")
        let plan = try SweepLimitsTests.plan(scratch: scratch.url, learningRate: 1e-3).adjusting { $0.training.seeds = [1, 2] }
        // Built afresh (no ids carried over by `adjusting`) with other folders and workers.
        var moved = plan.base
        moved.features.cache = scratch.url.appendingPathComponent("elsewhere/cache")
        moved.output.directory = scratch.url.appendingPathComponent("elsewhere/reports")
        moved.features.workers = 7
        moved.description = "another description"
        #expect(try SweepPlan(base: moved).trials.map(\.id) == plan.trials.map(\.id))
        #expect(Set(plan.trials.map(\.id)).count == 2, "one id per seed")

        var changed = plan.base
        changed.training.learningRate = 2e-3
        #expect(try SweepPlan(base: changed).trials.map(\.id) != plan.trials.map(\.id))
        // `adjusting` gives a new id only where the identity changed.
        #expect(try plan.adjusting { $0.training.threads = 2 }.trials.map(\.id) != plan.trials.map(\.id))
        #expect(try plan.adjusting { $0.features.workers = 2 }.trials.map(\.id) == plan.trials.map(\.id))

        // Sweeping such a setting would make every cell the same trial: the grid refuses it.
        for path in Trial.settingsOutsideIdentity {
            let manifest = """
                { name: 'x', dataset: { sources: [{ format: 'uea', path: '\(try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts").path)' }] },
                  features: { layout: 'accelerometer-gyroscope', frameRate: 10 },
                  sweep: { grid: { '\(path)': [\(path == "features.workers" ? "1, 2" : "'a', 'b'")] } } }
                """
            let error = #expect(throws: ManifestError.self) {
                try SweepPlan.parse(text: manifest, fileName: "x.json5", baseDirectory: scratch.url)
            }
            #expect(error?.issues.map(\.message) == [
                "cannot sweep '\(path)': it changes no result (it is not part of the trial id), so every grid cell would be the same trial",
            ])
        }
    }

    /// A folder whose sweep.json and trial folders carry ids from the earlier rule: `run DIR` and
    /// `run MANIFEST --output DIR` both find its finished trial and train nothing; status, the
    /// record's plan and the reports use the stored id.
    @Test func aFolderWithAnEarlierRulesIdsResumesUnderThem() throws {
        let scratch = try TemporaryDirectory(prefix: "trial-identity-legacy")
        let plan = try SweepLimitsTests.plan(scratch: scratch.url, learningRate: 1e-3)
        let folder = scratch.url.appendingPathComponent("sweep")
        _ = try SweepRunner(plan: plan, manifestURL: nil).run(output: folder)
        let trial = try #require(plan.trials.first)

        // Give the trial another id, as the earlier rule did, in sweep.json and on disk.
        let legacy = "0123456789ab"
        let recordURL = folder.appendingPathComponent(SweepRecord.fileName)
        let text = try String(contentsOf: recordURL, encoding: .utf8)
        #expect(text.contains("\"\(trial.id)\""))
        try Data(text.replacingOccurrences(of: "\"\(trial.id)\"", with: "\"\(legacy)\"").utf8).write(to: recordURL)
        let legacyFolder = folder.appendingPathComponent("trials/\(legacy)")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("trials/\(trial.id)"), to: legacyFolder)
        for name in ["complete.json", "config.json"] {
            let url = legacyFolder.appendingPathComponent(name)
            let contents = try String(contentsOf: url, encoding: .utf8)
            #expect(contents.contains(trial.id), "\(name) names its trial")
            try Data(contents.replacingOccurrences(of: trial.id, with: legacy).utf8).write(to: url)
        }
        // The weights record their trial too (TrialFolderCheck compares it with complete.json's).
        let weightsURL = legacyFolder.appendingPathComponent("weights.h5")
        var checkpoint = try Checkpoint(contentsOf: weightsURL)
        #expect(checkpoint.metadata["trial"] == trial.id)
        checkpoint.metadata["trial"] = legacy
        try checkpoint.write(to: weightsURL)
        let weights = try Data(contentsOf: weightsURL)

        #expect(try SweepRecord(folder: folder).plan().trials.map(\.id) == [legacy])
        #expect(try SweepStatus(folder: folder).rows.map(\.state) == [.finished])
        for runner in [try SweepRunner.resuming(folder), SweepRunner(plan: plan, manifestURL: nil)] {
            let lines = LogLines()
            var logging = runner
            logging.log = lines.append
            _ = try logging.run(output: folder)
            #expect(lines.lines.contains { $0.contains("1 of 1 trials finished, running 0") }, "\(lines.lines)")
        }
        let trials = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("trials").path)
        #expect(trials == [legacy], "nothing trained again")
        #expect(try Data(contentsOf: folder.appendingPathComponent("trials/\(legacy)/weights.h5")) == weights)
        // The reports, written again by both runs, read the trial under its stored id.
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains(legacy) && !summary.contains(trial.id), "\(summary)")

        // A folder that is not there is named as missing.
        let missing = #expect(throws: SweepError.self) { try SweepRecord(folder: scratch.url.appendingPathComponent("nowhere")) }
        #expect(missing.map { "\($0)" }?.hasSuffix("nowhere is not a sweep folder: no such folder") == true, "\(String(describing: missing))")

        // Another sweep is still refused.
        let other = try plan.adjusting { $0.training.learningRate = 2e-3 }
        #expect(throws: SweepError.self) { try SweepRunner(plan: other, manifestURL: nil).run(output: folder) }
    }
}
