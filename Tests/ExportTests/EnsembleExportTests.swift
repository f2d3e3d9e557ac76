import ActionLabTestSupport
import Dataset
import Export
import FeatureCache
import Foundation
import Manifest
import Models
import ModelExport
import NeuralNetwork
import Reports
import Sweeps
import SweepTestSupport
import Testing
import Training

/// `actionlab export --ensemble`: a sweep's stream ensemble exported as one ONNX graph, checked by
/// onnx's checker and onnxruntime against ActionLab's own fused probabilities on real UTD-MHAD
/// test windows, with the selection rule, the members' files and the errors of folders without one.
@Suite(.serialized) struct EnsembleExportTests {
    @Test func theFourStreamsExportAsOneGraphThatOnnxruntimeEvaluatesToTheFusedProbabilities() throws {
        let scratch = try TemporaryDirectory()
        let sweep = try RealDataSweeps.utdMHADStreams(in: scratch.url)
        let (plan, folder) = (sweep.plan, sweep.folder)
        let output = scratch.file("ensemble")
        let result = try EnsembleExporter().export(from: folder, to: output)
        let names = result.files.map { String($0.path.dropFirst(output.path.count + 1)) }
        #expect(names == ["model.onnx"] + ["joint", "bone", "jointMotion", "boneMotion"].flatMap {
            ["members/\($0)/config.json", "members/\($0)/weights.h5"]
        } + ["ensemble.json", "model-card.md"])
        // No validation split and one ensemble: the lowest fused seed, and the rule says why.
        #expect(result.selection.seed.seed == 1)
        #expect(result.selection.rule.contains("no validation split"))
        #expect(result.selection.members.map(\.weight) == [2, 2, 1, 1])
        let description = try JSONDecoder().decode(
            EnsembleExporter.Description.self, from: Data(contentsOf: output.appendingPathComponent("ensemble.json")))
        #expect(description.members.map(\.stream) == ["joint", "bone", "jointMotion", "boneMotion"] && description.seed == 1)
        #expect(description.labels.count == 27)
        let card = try String(contentsOf: output.appendingPathComponent("model-card.md"), encoding: .utf8)
        for expected in ["stream ensemble j+b+jm+bm, seed 1", result.selection.rule, "**exported**, seed 1", "**ensemble**",
                         "`poses`: float32 `[48, 3, 20]`", "## Intended use and limitations", "members/bone/weights.h5"] {
            #expect(card.contains(expected), "model card lacks '\(expected)'")
        }
        // Exporting again gives the same bytes; --seed chooses the other seed.
        let again = try EnsembleExporter().export(from: folder, to: scratch.file("again"))
        for (first, second) in zip(result.files, again.files) {
            #expect(try Data(contentsOf: first) == Data(contentsOf: second), "\(first.lastPathComponent) differs between exports")
        }
        let seed2 = try EnsembleExporter().export(from: folder, seed: 2, to: scratch.file("seed2")).selection
        #expect(seed2.seed.seed == 2 && seed2.rule.hasSuffix("seed named with --seed 2"))
        // --trial names a member trial: its ensemble and seed.
        let boneOfSeed2 = try #require(seed2.members.first { $0.stream == .bone }).folder.id
        let byTrial = try EnsembleExporter().export(from: folder, trialID: boneOfSeed2, to: scratch.file("by-trial")).selection
        #expect(byTrial.seed.seed == 2 && byTrial.members.map(\.folder.id) == seed2.members.map(\.folder.id))
        #expect(byTrial.rule.contains("the ensemble and seed of trial \(boneOfSeed2) named with --trial"))

        // The export folder always describes one model: no single model over an ensemble, no
        // ensemble over a single model or into a run's own folders.
        #expect { try ModelExporter().export(from: folder, to: output) } throws: {
            "\($0)".contains("cannot export here: it holds a stream-ensemble export (ensemble.json, members)")
        }
        let single = scratch.file("single")
        _ = try ModelExporter(formats: [.onnx, .h5]).export(from: folder, trialID: boneOfSeed2, to: single)
        #expect { try EnsembleExporter().export(from: folder, to: single) } throws: {
            "\($0)".contains("cannot export here: it holds a single-model export (weights.h5, config.json)")
        }
        #expect { try EnsembleExporter().export(from: folder, to: folder) } throws: {
            "\($0)".contains("it is a sweep folder of actionlab run (it holds sweep.json); export into a folder of its own")
        }
        #expect { try EnsembleExporter().export(from: folder, to: folder.appendingPathComponent(boneOfSeed2)) } throws: {
            "\($0)".contains("it is a trial folder of actionlab run (it holds complete.json)")
        }
        // Nor a predictions folder, which predict would write its streams into again.
        let predictions = scratch.file("predictions")
        try FileManager.default.createDirectory(at: predictions, withIntermediateDirectories: true)
        try Data(#"{"format": "actionlab-predictions", "format_version": 1, "streams": []}"#.utf8)
            .write(to: predictions.appendingPathComponent(ActionLabFolderKind.predictionsRecordName))
        #expect { try EnsembleExporter().export(from: folder, to: predictions) } throws: {
            "\($0)".contains("it is a predictions folder of actionlab predict (it holds predict-run.json)")
        }
        // A file where a parent folder should be is named, not Foundation's "could not be completed".
        let notAFolder = scratch.file("not-a-folder")
        try Data("x".utf8).write(to: notAFolder)
        #expect { try EnsembleExporter().export(from: folder, to: notAFolder.appendingPathComponent("deeper/export")) } throws: {
            "\($0)".contains("\(notAFolder.path) is a file, not a folder")
        }

        // A damaged scores file takes its seed out of the candidates, and the card and selection say so.
        let damaged = scratch.file("damaged")
        try FileManager.default.copyItem(at: folder, to: damaged)
        let boneOfSeed1 = try #require(result.selection.members.first { $0.stream == .bone }).folder.id
        try Data("recording,window,label_index,label\n".utf8)
            .write(to: damaged.appendingPathComponent("\(boneOfSeed1)/scores/test.csv"))
        let partial = try EnsembleExporter().export(from: damaged, to: scratch.file("partial"))
        #expect(partial.selection.seed.seed == 2)
        #expect(partial.selection.skipped.count == 1 && partial.selection.skipped[0].hasPrefix("seed 1: "), "\(partial.selection.skipped)")
        let partialCard = try String(contentsOf: scratch.file("partial").appendingPathComponent("model-card.md"), encoding: .utf8)
        #expect(partialCard.contains("could not be fused, and so were not candidates") && partialCard.contains("- seed 1: "))
        #expect { try EnsembleExporter().export(from: damaged, seed: 1, to: scratch.file("partial-1")) } throws: {
            "\($0)".contains("--seed 1 could not be fused: seed 1: ")
        }

        // ActionLab's fused probabilities on the real test windows: each member's Evaluator output,
        // weighted 2:2:1:1; their accuracy is the sweep's own ensemble accuracy.
        let configuration = plan.base
        let dataset = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let windows = try WindowBuilder(configuration.windows, layout: configuration.features.layout)
            .windows(of: dataset.test, labels: dataset.labels)
        let classCount = windows.labels.count
        var fused = [Float](repeating: 0, count: windows.count * classCount)
        for member in result.selection.members {
            let artifacts = try TrialArtifacts(folder: member.folder)
            #expect(artifacts.labels == windows.labels)
            let probabilities = try Evaluator(batchSize: 16, aggregation: .mean).predict(try artifacts.makeModel(), on: windows).probabilities
            for index in fused.indices { fused[index] += Float(member.weight / 6) * probabilities[index] }
        }
        var correct = 0
        for window in 0..<windows.count {
            let row = fused[(window * classCount)..<((window + 1) * classCount)]
            if let best = row.indices.max(by: { row[$0] < row[$1] }), best - window * classCount == windows.labelIndices[window] { correct += 1 }
        }
        let sweepAccuracy = try #require(result.selection.seed.splits["test"]?.window.accuracy)
        #expect(abs(Double(correct) / Double(windows.count) - sweepAccuracy) < 1e-12, "fused here \(correct)/\(windows.count), sweep \(sweepAccuracy)")

        let windowsFile = scratch.file("windows.f32")
        let expectedFile = scratch.file("expected.f32")
        try littleEndianFloat32Data(windows.values).write(to: windowsFile)
        try littleEndianFloat32Data(fused).write(to: expectedFile)
        guard try PythonOracle.requireModules(["h5py", "numpy", "onnx", "onnxruntime"]) else { return }
        let summary = try #require(try PythonOracle.json(
            """
            import json, os, sys
            import h5py, numpy as np, onnx, onnxruntime
            folder, windows_path, expected_path = sys.argv[1:4]
            n, t, c, j, k = (int(v) for v in sys.argv[4:9])
            model = onnx.load(os.path.join(folder, "model.onnx"))
            onnx.checker.check_model(model, full_check=True)
            metadata = {p.key: p.value for p in model.metadata_props}
            assert metadata["ensemble_streams"] == "joint bone jointMotion boneMotion", metadata
            initializers = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
            tensors = 0
            for stream in metadata["ensemble_streams"].split():
                with h5py.File(os.path.join(folder, "members", stream, "weights.h5"), "r") as f:
                    for name in f["model"].attrs["tensor_names"]:
                        name = name.decode() if isinstance(name, bytes) else name
                        assert np.array_equal(initializers[stream + "/" + name], f["model"][name][()]), (stream, name)
                        tensors += 1
            session = onnxruntime.InferenceSession(os.path.join(folder, "model.onnx"), providers=["CPUExecutionProvider"])
            windows = np.fromfile(windows_path, dtype="<f4").reshape(n, t, c, j)
            expected = np.fromfile(expected_path, dtype="<f4").reshape(n, k)
            outputs = np.stack([session.run(["labelProbabilities"], {"poses": w})[0] for w in windows])
            print(json.dumps({"max_abs_difference": float(np.max(np.abs(outputs - expected))), "windows": n, "tensors": tensors,
                              "sums": float(np.max(np.abs(outputs.sum(axis=1) - 1)))}))
            """, arguments: [
                output.path, windowsFile.path, expectedFile.path, "\(windows.count)", "\(windows.windowSize)",
                "\(windows.channelCount)", "\(windows.jointCount)", "\(classCount)",
            ]) as? [String: Any])
        print("ensemble export check: \(summary)")
        #expect((summary["max_abs_difference"] as? Double ?? 1) <= 1e-5, "\(summary)")
        #expect((summary["sums"] as? Double ?? 1) <= 1e-5, "\(summary)")
        #expect(summary["windows"] as? Int == 430)
        #expect((summary["tensors"] as? Int ?? 0) > 0)
    }

    /// With a validation subject carved from the training subjects, the exported seed is the one
    /// with the best fused validation accuracy, as `ensembles.csv`'s validation column has it.
    @Test func withAValidationSplitTheSeedWithTheBestFusedValidationAccuracyIsExported() throws {
        let scratch = try TemporaryDirectory()
        let folder = try RealDataSweeps.utdMHADStreams(in: scratch.url) {
            $0.dataset.validation.strategy = .automatic
            $0.dataset.validation.groupBy = "subject"
            $0.dataset.validation.fraction = 0.25
        }.folder
        let result = try EnsembleExporter().export(from: folder, to: scratch.file("ensemble"))
        let seeds = result.selection.chosen.seeds
        #expect(seeds.map(\.seed).sorted() == [1, 2])
        let accuracies = seeds.compactMap { $0.splits["validation"]?.window.accuracy }
        try #require(accuracies.count == 2)
        let best = try #require(accuracies.max())
        #expect(result.selection.seed.splits["validation"]?.window.accuracy == best)
        if accuracies[0] == accuracies[1] {
            // Ties go to the lower fused validation loss, then the lower seed.
            let losses = seeds.map { $0.splits["validation"]?.window.loss ?? .infinity }
            #expect(result.selection.seed.seed == (losses[0] == losses[1] ? min(seeds[0].seed, seeds[1].seed)
                : seeds[losses[0] < losses[1] ? 0 : 1].seed))
        }
        #expect(result.selection.rule.contains("the ensemble with the highest fused validation accuracy"))
        let table = try Table.parse(csv: String(contentsOf: folder.appendingPathComponent("ensembles.csv"), encoding: .utf8))
        let column = try #require(table.header.firstIndex(of: "validation_accuracy_mean"))
        let mean = try #require(Double(table.rows[0][column]))
        #expect(abs(mean - accuracies.reduce(0, +) / 2) < 1e-12)
        let card = try String(contentsOf: scratch.file("ensemble").appendingPathComponent("model-card.md"), encoding: .utf8)
        #expect(card.contains("**exported**, seed \(result.selection.seed.seed)"))
    }

    @Test func aFolderWithoutAStreamEnsembleIsAClearError() throws {
        let scratch = try TemporaryDirectory()
        #expect {
            try EnsembleExporter().export(from: scratch.file("missing"), to: scratch.file("out"))
        } throws: { error in
            "\(error)".contains("missing: no such folder")
        }
        try FileManager.default.createDirectory(at: scratch.file("empty"), withIntermediateDirectories: true)
        #expect {
            try EnsembleExporter().export(from: scratch.file("empty"), to: scratch.file("out"))
        } throws: { error in
            "\(error)".contains("no stream ensemble to export: not a sweep folder")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out").path))
    }

    /// A sweep over one stream has nothing to fuse, and says so rather than "not finished".
    @Test func aSweepOfOneStreamHasNoEnsembleAndSaysWhy() throws {
        let scratch = try TemporaryDirectory()
        let folder = try RealDataSweeps.utdMHADStreams(in: scratch.url, streams: ["bone"]).folder
        #expect { try EnsembleExporter().export(from: folder, to: scratch.file("out")) } throws: {
            "\($0)".contains("its sweep trains one stream (bone); an ensemble needs two or more")
        }
    }
}
