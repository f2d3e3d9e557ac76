import ActionLabTestSupport
import Experiment
import Foundation
import HDF5
import NeuralNetwork
import Testing

/// End-to-end runs of the committed manifests on the real UEA/UCR recordings that
/// `scripts/setup` fetches: accuracy, determinism, and the report files' contract.
@Suite(.serialized) struct RealDataExperimentTests {
    /// Loads `experiments/<name>.json5` with the package root as base folder, redirecting the
    /// feature cache and the reports into `scratch`.
    static func configuration(_ name: String, scratch: URL) throws -> (ExperimentConfiguration, URL) {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")  // fails with "run scripts/setup" if absent
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/\(name).json5")
        var configuration = try ExperimentConfiguration.load(contentsOf: manifest, baseDirectory: TestData.packageRoot)
        configuration.features.cache = scratch.appendingPathComponent("cache")
        configuration.output.directory = scratch.appendingPathComponent("reports")
        return (configuration, manifest)
    }

    static func metrics(_ folder: URL, seed: Int) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("seed-\(seed)/metrics.json"))
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
        let (configuration, manifest) = try Self.configuration(name, scratch: scratch.url)
        #expect(configuration.training.seeds.count == 3)
        let folder = try ExperimentRunner(configuration: configuration, manifestURL: manifest).run()
        let accuracies = try configuration.training.seeds.map { try #require(Self.testAccuracy(Self.metrics(folder, seed: $0))) }
        let mean = accuracies.reduce(0, +) / Double(accuracies.count)
        #expect(mean >= 0.95, "\(name) test accuracies \(accuracies), mean \(mean)")
    }

    /// Same manifest, same seed: identical metrics, curves and weights, bit for bit; and a second
    /// run reads every source from the feature cache.
    @Test func runningTwiceGivesIdenticalMetricsAndWeights() throws {
        let scratch = try TemporaryDirectory()
        var (configuration, manifest) = try Self.configuration("basicmotions", scratch: scratch.url)
        configuration.training.epochs = 8
        configuration.training.seeds = [5]
        let first = try ExperimentRunner(configuration: configuration, manifestURL: manifest)
            .run(output: scratch.file("first"))
        var logLines: [String] = []
        let second = try ExperimentRunner(configuration: configuration, manifestURL: manifest) { logLines.append($0) }
            .run(output: scratch.file("second"))
        for file in ["metrics.json", "curves.csv", "confusion_test.csv", "config.json"] {
            let a = try Data(contentsOf: first.appendingPathComponent("seed-5/\(file)"))
            let b = try Data(contentsOf: second.appendingPathComponent("seed-5/\(file)"))
            #expect(a == b, "\(file) differs between runs")
        }
        let weightsA = try Checkpoint(contentsOf: first.appendingPathComponent("seed-5/weights.h5"))
        let weightsB = try Checkpoint(contentsOf: second.appendingPathComponent("seed-5/weights.h5"))
        #expect(weightsA.model.map(\.name) == weightsB.model.map(\.name))
        #expect(weightsA.model.map(\.tensor) == weightsB.model.map(\.tensor))
        #expect(logLines.filter { $0.contains("(cache)") }.count == 2, "second run should read both sources from the cache: \(logLines)")
        #expect(logLines.filter { $0.contains("(imported)") }.isEmpty)

        // Another seed gives other weights.
        configuration.training.seeds = [6]
        let third = try ExperimentRunner(configuration: configuration, manifestURL: manifest).run(output: scratch.file("third"))
        let weightsC = try Checkpoint(contentsOf: third.appendingPathComponent("seed-6/weights.h5"))
        #expect(weightsC.model.map(\.tensor) != weightsA.model.map(\.tensor))
    }

    /// The report layout the README documents, and files that pandas and h5py read as is.
    @Test func reportFilesFollowTheDocumentedContract() throws {
        let scratch = try TemporaryDirectory()
        var (configuration, manifest) = try Self.configuration("basicmotions", scratch: scratch.url)
        configuration.training.epochs = 3
        configuration.training.seeds = [1, 2]
        let folder = try ExperimentRunner(configuration: configuration, manifestURL: manifest).run()
        #expect(folder.deletingLastPathComponent().lastPathComponent == "basicmotions")
        for file in ["manifest.json5", "resolved.json", "summary.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "missing \(file)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("manifest.json5")) == Data(contentsOf: manifest))
        let runFiles = ["config.json", "provenance.json", "curves.csv", "curves.md", "metrics.json", "weights.h5"]
            + ["train", "validation", "test"].flatMap { ["confusion_\($0).csv", "confusion_\($0).md", "confusion_\($0)_sequence.csv"] }
        for seed in [1, 2] {
            for file in runFiles {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("seed-\(seed)/\(file)").path),
                        "missing seed-\(seed)/\(file)")
            }
        }
        // No temporary or partial files anywhere.
        let all = FileManager.default.enumerator(atPath: folder.deletingLastPathComponent().path)?.compactMap { $0 as? String } ?? []
        #expect(all.filter { $0.contains(".tmp") || $0.contains(".partial") }.isEmpty, "\(all)")

        let curves = try String(contentsOf: folder.appendingPathComponent("seed-1/curves.csv"), encoding: .utf8)
        #expect(curves.hasPrefix("epoch,train_loss,train_accuracy,validation_loss,validation_accuracy\n1,"))
        #expect(curves.split(separator: "\n").count == 4)

        let metrics = try Self.metrics(folder, seed: 1)
        #expect(Set(metrics.keys) == ["train", "validation", "test"])
        let test = try #require(metrics["test"] as? [String: Any])
        #expect(test["macro_f1"] is Double)
        #expect(((test["per_class"] as? [String: Any])?.keys).map(Set.init) == ["badminton", "running", "standing", "walking"])
        #expect(((test["sequence"] as? [String: Any])?["accuracy"]) is Double)

        let provenance = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("seed-1/provenance.json"))) as? [String: Any])
        #expect(provenance["hdf5_version"] as? String == HDF5Library.version)
        #expect(provenance["seed"] as? Int == 1)
        let data = try #require(provenance["data"] as? [[String: Any]])
        #expect(data.map { $0["sha256"] as? String } == [
            "8dc43cc6306cb679c888c01e26f91772ac4441a916da43bac8b79734a538b9d6",
            "79213102bc6fca1a398ad98ce1185dff0208fa3d1465e687f48288946b0ff8dc",
        ])

        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("| test accuracy (windows) |"))
        #expect(summary.contains("[metrics.json](seed-2/metrics.json)"))

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
            """, arguments: [folder.appendingPathComponent("seed-1").path])
        #expect(check.status == 0 && check.output.contains("ok"), "pandas/h5py check failed: \(check.errorOutput)")
    }
}
