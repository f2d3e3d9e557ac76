import ActionLabTestSupport
import Foundation
import HDF5
import Manifest
import NeuralNetwork
import Sweeps
import SweepTestSupport
import Training
import Testing

/// End-to-end runs of the committed manifests on the real UEA/UCR recordings that
/// `scripts/setup` fetches: accuracy, determinism, and the report files' contract.
@Suite(.serialized) struct RealDataExperimentTests {
    /// The folder of the trial with `seed` (of the first configuration).
    static func trialFolder(_ folder: URL, _ runner: SweepRunner, seed: Int) throws -> URL {
        let trial = try #require(runner.plan.trials.first { $0.seed == seed })
        return folder.appendingPathComponent("trials/\(trial.id)")
    }

    static func metrics(_ folder: URL, _ runner: SweepRunner, seed: Int) throws -> [String: Any] {
        let data = try Data(contentsOf: trialFolder(folder, runner, seed: seed).appendingPathComponent("metrics.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func testAccuracy(_ metrics: [String: Any]) -> Double? {
        (metrics["test"] as? [String: Any])?["accuracy"] as? Double
    }

    /// Acceptance: mean test accuracy over three seeds ≥ 0.95 (published 1-NN baselines:
    /// BasicMotions 0.975 with DTW, GunPoint 0.913 with Euclidean distance).
    @Test(arguments: ["basicmotions", "gunpoint", "basicmotions-stgcn"])
    func meanTestAccuracyOverThreeSeedsBeatsTheBar(name: String) throws {
        let scratch = try TemporaryDirectory()
        let runner = try RealDataSweeps.runner(name, scratch: scratch.url)
        let seeds = runner.plan.base.training.seeds
        #expect(seeds.count == 3)
        let folder = try runner.run()
        let accuracies = try seeds.map { try #require(Self.testAccuracy(Self.metrics(folder, runner, seed: $0))) }
        let mean = accuracies.reduce(0, +) / Double(accuracies.count)
        #expect(mean >= 0.95, "\(name) test accuracies \(accuracies), mean \(mean)")
    }

    /// Same manifest, same seed: identical metrics, curves and weights, bit for bit; and a second
    /// run reads every source from the feature cache.
    @Test func runningTwiceGivesIdenticalMetricsAndWeights() throws {
        let scratch = try TemporaryDirectory()
        let adjust: (inout ExperimentConfiguration) -> Void = {
            $0.training.epochs = 8
            $0.training.seeds = [5]
        }
        let runner = try RealDataSweeps.runner("basicmotions", scratch: scratch.url, adjust: adjust)
        let first = try Self.trialFolder(runner.run(output: scratch.file("first")), runner, seed: 5)
        let logLines = LogLines()
        let second = try Self.trialFolder(
            RealDataSweeps.runner("basicmotions", scratch: scratch.url, adjust: adjust, log: logLines.append).run(output: scratch.file("second")),
            runner, seed: 5)
        for file in ["metrics.json", "curves.csv", "confusion_test.csv", "config.json", "complete.json", "weights.h5"] {
            let a = try Data(contentsOf: first.appendingPathComponent(file))
            let b = try Data(contentsOf: second.appendingPathComponent(file))
            #expect(a == b, "\(file) differs between runs")
        }
        let weightsA = try Checkpoint(contentsOf: first.appendingPathComponent("weights.h5"))
        let weightsB = try Checkpoint(contentsOf: second.appendingPathComponent("weights.h5"))
        #expect(weightsA.model.map(\.name) == weightsB.model.map(\.name))
        #expect(weightsA.model.map(\.tensor) == weightsB.model.map(\.tensor))
        #expect(logLines.lines.filter { $0.contains("(1 from the cache, 0 imported)") }.count == 2,
                "second run should read both sources from the cache: \(logLines.lines)")

        // Another seed gives other weights.
        let other = try RealDataSweeps.runner("basicmotions", scratch: scratch.url) {
            $0.training.epochs = 8
            $0.training.seeds = [6]
        }
        let third = try Self.trialFolder(other.run(output: scratch.file("third")), other, seed: 6)
        let weightsC = try Checkpoint(contentsOf: third.appendingPathComponent("weights.h5"))
        #expect(weightsC.model.map(\.tensor) != weightsA.model.map(\.tensor))
    }

    /// The report layout the README documents, and files that pandas and h5py read as is.
    @Test func reportFilesFollowTheDocumentedContract() throws {
        let scratch = try TemporaryDirectory()
        let runner = try RealDataSweeps.runner("basicmotions", scratch: scratch.url) {
            $0.training.epochs = 3
            $0.training.seeds = [1, 2]
        }
        let manifest = try #require(runner.manifestURL)
        let folder = try runner.run()
        #expect(folder.deletingLastPathComponent().lastPathComponent == "basicmotions")
        for file in ["manifest.json5", "resolved.json", "summary.md", "report.html", "sweep.json", "leaderboard.csv"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "missing \(file)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("manifest.json5")) == Data(contentsOf: manifest))
        let runFiles = ["config.json", "provenance.json", "curves.csv", "curves.md", "metrics.json", "weights.h5", "timing.json", "complete.json", "report.html"]
            + ["train", "validation", "test"].flatMap { ["confusion_\($0).csv", "confusion_\($0).md", "confusion_\($0)_sequence.csv"] }
            + ["scores/validation.csv", "scores/test.csv"]
        for seed in [1, 2] {
            let trial = try Self.trialFolder(folder, runner, seed: seed)
            for file in runFiles {
                #expect(FileManager.default.fileExists(atPath: trial.appendingPathComponent(file).path), "missing \(trial.lastPathComponent)/\(file)")
            }
        }
        // No temporary or partial files anywhere.
        let all = FileManager.default.enumerator(atPath: folder.deletingLastPathComponent().path)?.compactMap { $0 as? String } ?? []
        #expect(all.filter { $0.contains(".tmp") || $0.contains(".partial") }.isEmpty, "\(all)")

        let trialOne = try Self.trialFolder(folder, runner, seed: 1)
        let curves = try String(contentsOf: trialOne.appendingPathComponent("curves.csv"), encoding: .utf8)
        #expect(curves.hasPrefix("epoch,train_loss,train_accuracy,validation_loss,validation_accuracy\n1,"))
        #expect(curves.split(separator: "\n").count == 4)

        // The window probabilities score back to metrics.json's accuracy, and training windows are not written.
        let scores = try WindowScores(contentsOf: trialOne.appendingPathComponent("scores/test.csv"))
        let rescored = Evaluator(batchSize: 1, aggregation: .mean).metrics(of: scores, loss: nil)
        #expect(!FileManager.default.fileExists(atPath: trialOne.appendingPathComponent("scores/train.csv").path))
        let metrics = try Self.metrics(folder, runner, seed: 1)
        #expect((metrics["test"] as? [String: Any])?["accuracy"] as? Double == rescored.window.accuracy)
        #expect(Set(metrics.keys) == ["train", "validation", "test"])
        let test = try #require(metrics["test"] as? [String: Any])
        #expect(test["macro_f1"] is Double)
        #expect(((test["per_class"] as? [String: Any])?.keys).map(Set.init) == ["badminton", "running", "standing", "walking"])
        #expect(((test["sequence"] as? [String: Any])?["accuracy"]) is Double)

        let provenance = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: trialOne.appendingPathComponent("provenance.json"))) as? [String: Any])
        #expect(provenance["hdf5_version"] as? String == HDF5Library.version)
        #expect(provenance["seed"] as? Int == 1)
        let data = try #require(provenance["data"] as? [[String: Any]])
        #expect(data.map { $0["sha256"] as? String } == [
            "8dc43cc6306cb679c888c01e26f91772ac4441a916da43bac8b79734a538b9d6",
            "79213102bc6fca1a398ad98ce1185dff0208fa3d1465e687f48288946b0ff8dc",
        ])

        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("| test accuracy (windows) |"))
        let trialTwo = try Self.trialFolder(folder, runner, seed: 2).lastPathComponent
        #expect(summary.contains("[metrics.json](trials/\(trialTwo)/metrics.json)"))
        let leaderboard = try String(contentsOf: folder.appendingPathComponent("leaderboard.csv"), encoding: .utf8)
        #expect(leaderboard.hasPrefix("rank,cell,seeds,seed_values,selection_validation_accuracy,validation_accuracy_mean,"))

        // The reference readers: pandas for CSV without options, h5py for weights.
        guard try PythonOracle.requireH5py() else { return }
        let check = try PythonOracle.run("""
            import sys, h5py, pandas as pd
            run = sys.argv[1]
            curves = pd.read_csv(run + "/curves.csv")
            assert list(curves.columns) == ["epoch", "train_loss", "train_accuracy", "validation_loss", "validation_accuracy"], curves.columns
            assert curves.dtypes.apply(lambda t: t.kind in "if").all(), curves.dtypes
            confusion = pd.read_csv(run + "/confusion_test.csv", index_col=0)
            assert confusion.shape == (4, 4) and int(confusion.values.sum()) == 40, confusion
            with h5py.File(run + "/weights.h5", "r") as f:
                assert f.attrs["format"] == "actionlab-checkpoint"
                assert f["model/classifier.weight"].shape == (4, 64), f["model/classifier.weight"].shape
                assert f.attrs["input_shape"] == "[100, 3, 2]"
            print("ok")
            """, arguments: [trialOne.path])
        #expect(check.status == 0 && check.output.contains("ok"), "pandas/h5py check failed: \(check.errorOutput)")
    }
}
