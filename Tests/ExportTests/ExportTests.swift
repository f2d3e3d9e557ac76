import ActionLabTestSupport
import Dataset
import Export
import FeatureCache
import Foundation
import Manifest
import Models
import NeuralNetwork
import Reports
import Sweeps
import SyntheticData
import Testing
import Training

/// `actionlab export`'s library side: the selection rule, errors that name what is missing, and
/// the exported files checked by the reference implementations (onnx's checker, onnxruntime,
/// safetensors) against ActionLab's own predictions on real windows.
@Suite(.serialized) struct ExportTests {
    /// Writes a fake trial folder: the required files, with `metrics.json` holding the given
    /// validation accuracy and loss (the selection reads nothing else) and `weights.h5` a
    /// checkpoint without tensors (the selection only checks that it opens).
    static func fakeTrial(_ folder: URL, validation: (accuracy: Double, loss: Double)?, files: [String]? = nil) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func scores(_ accuracy: Double, _ loss: Double) -> String {
            #"{"accuracy": \#(accuracy), "macro_f1": 0.5, "loss": \#(loss), "count": 4, "per_class": {}}"#
        }
        var splits = [#""test": \#(scores(0.5, 1))"#]
        if let validation { splits.append(#""validation": \#(scores(validation.accuracy, validation.loss))"#) }
        for name in files ?? TrialFolder.requiredFiles.map(\.name) {
            let url = folder.appendingPathComponent(name)
            switch name {
            case "weights.h5": try Checkpoint(model: []).write(to: url)
            case "metrics.json": try Data(("{" + splits.joined(separator: ",") + "}").utf8).write(to: url)
            case "config.json":
                // A configuration that decodes, as a finished trial's must (TrialFolderCheck).
                let configuration = String(decoding: try JSONEncoder().encode(ExperimentConfiguration.defaults), as: UTF8.self)
                try Data(#"{"seed": 1, "trial": "x", "configuration": \#(configuration)}"#.utf8).write(to: url)
            case "provenance.json":
                // Provenance that decodes, as a finished trial's must (TrialFolderCheck), of the marker's seed.
                try JSONEncoder().encode(Provenance.current(seed: 1, data: [])).write(to: url)
            case TrialRunner.completionMarker:
                // The marker repeats metrics.json's headline scores, as a trial writes them (TrialFolderCheck compares them).
                func marker(_ accuracy: Double, _ loss: Double) -> String {
                    #"{"accuracy": \#(accuracy), "macro_f1": 0.5, "loss": \#(loss), "sequence_accuracy": \#(accuracy), "#
                        + #""sequence_macro_f1": 0.5, "sequences": 4, "windows": 4}"#
                }
                var markerSplits = [#""test": \#(marker(0.5, 1))"#]
                if let validation { markerSplits.append(#""validation": \#(marker(validation.accuracy, validation.loss))"#) }
                try Data((#"{"id": "x", "index": 0, "cell": 0, "seed": 1, "values": [], "splits": {"#
                    + markerSplits.joined(separator: ",") + #"}, "epochs": 1}"#).utf8).write(to: url)
            default: try Data().write(to: url)
            }
        }
    }

    /// `status` and `run` (damage) and `export` and `predict` (what a folder lacks) judge a trial
    /// folder by one check: every kind of damage is seen by both, with the file named.
    @Test func statusAndExportJudgeATrialFolderAlike() throws {
        let scratch = try TemporaryDirectory()
        let damages: [(name: String, damage: (URL) throws -> Void, lacks: String)] = [
            ("marker", { try Data("{".utf8).write(to: $0.appendingPathComponent("complete.json")) }, "a readable complete.json"),
            ("config", { try Data("{\"seed\": 1}".utf8).write(to: $0.appendingPathComponent("config.json")) },
             "a readable config.json (trials/config/config.json"),
            ("provenance", { try Data("[]".utf8).write(to: $0.appendingPathComponent("provenance.json")) },
             "a readable provenance.json (trials/provenance/provenance.json:1:1"),
            ("metrics", { try FileManager.default.removeItem(at: $0.appendingPathComponent("metrics.json")) }, "metrics.json"),
            ("weights", { try Data("not HDF5".utf8).write(to: $0.appendingPathComponent("weights.h5")) }, "a readable weights.h5 ("),
            // Edits that keep the JSON valid: the leaderboard ranks by complete.json, export chooses by metrics.json.
            ("edited-marker", { folder in
                let url = folder.appendingPathComponent("complete.json")
                let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: #""accuracy": 0.5,"#, with: #""accuracy": 0.99,"#)
                try Data(text.utf8).write(to: url)
            }, "a metrics.json that agrees with complete.json (test accuracy 0.5, where complete.json says 0.99)"),
            ("edited-config", { folder in
                let url = folder.appendingPathComponent("config.json")
                let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: #""seed": 1,"#, with: #""seed": 7,"#)
                try Data(text.utf8).write(to: url)
            }, "a config.json that agrees with complete.json (seed 7, where complete.json says seed 1)"),
        ]
        let whole = scratch.url.appendingPathComponent("trials/whole")
        try Self.fakeTrial(whole, validation: (0.5, 1))
        let check = try #require(TrialFolderCheck(folder: whole, name: "trials/whole"))
        #expect(check.isWhole && check.damage == nil && check.lacking.isEmpty, "\(check.problems)")
        #expect(TrialFolderCheck(folder: scratch.file("absent"), name: "absent") == nil)
        for (name, damage, lacks) in damages {
            let folder = scratch.url.appendingPathComponent("trials/\(name)")
            try Self.fakeTrial(folder, validation: (0.5, 1))
            try damage(folder)
            let check = try #require(TrialFolderCheck(folder: folder, name: "trials/\(name)"))
            #expect(!check.isWhole && check.damage?.contains("trials/\(name)") == true, "\(name): \(String(describing: check.damage))")
            let missing = TrialFolder(url: folder, id: "trials/\(name)").missingFiles
            #expect(missing.count == 1 && missing[0].hasPrefix(lacks), "\(name): \(missing)")
        }
        let selection = try TrialSelection.select(in: scratch.url)
        #expect(selection.chosen.folder.id == "trials/whole")
        #expect(selection.incomplete.map(\.id).sorted() == damages.map { "trials/\($0.name)" }.sorted())
    }

    /// A changed byte inside a tensor, or weights of another seed: only the check that reads the
    /// tensors finds them, which `run` and `status` make, so that the trial is trained again.
    @Test func theTensorCheckFindsAChangedByteAndWeightsOfAnotherSeed() throws {
        let scratch = try TemporaryDirectory()
        let value = Float(1234.5678)
        for (name, seed) in [("flipped", "1"), ("other-seed", "2")] {
            let folder = scratch.url.appendingPathComponent("trials/\(name)")
            try Self.fakeTrial(folder, validation: (0.5, 1))
            let weights = folder.appendingPathComponent("weights.h5")
            try Checkpoint(model: [("w", Tensor(shape: [64], values: [Float](repeating: value, count: 64)))], metadata: ["seed": seed, "trial": "x"])
                .write(to: weights)
            if name == "flipped" {
                var bytes = try Data(contentsOf: weights)
                let pattern = withUnsafeBytes(of: value.bitPattern.littleEndian) { Data($0) }
                let at = try #require(bytes.range(of: pattern)).lowerBound
                bytes[at] ^= 0x01
                try bytes.write(to: weights)
            }
            #expect(TrialFolderCheck(folder: folder, name: "trials/\(name)")?.isWhole == true, "the quick check reads no tensor")
            let thorough = try #require(TrialFolderCheck(folder: folder, name: "trials/\(name)", verifyingTensors: true))
            let expected = name == "flipped"
                ? "trials/flipped/weights.h5 cannot be read: "
                : "trials/other-seed/weights.h5 disagrees with trials/other-seed/complete.json: seed 2, where complete.json says seed 1"
            #expect(!thorough.isWhole && thorough.damage?.hasPrefix(expected) == true, "\(String(describing: thorough.damage))")
        }
        let whole = scratch.url.appendingPathComponent("trials/whole")
        try Self.fakeTrial(whole, validation: (0.5, 1))
        #expect(TrialFolderCheck(folder: whole, name: "trials/whole", verifyingTensors: true)?.isWhole == true)
    }

    /// A `sweep.json` that does not read stops the selection, as it stops `status` and `compare`:
    /// choosing by the validation rule instead (what happened) would export another trial silently.
    @Test func aDamagedSweepRecordIsAnErrorNotAnotherRule() throws {
        let scratch = try TemporaryDirectory()
        try Self.fakeTrial(scratch.url.appendingPathComponent("trials/a"), validation: (0.5, 1))
        #expect(try TrialSelection.select(in: scratch.url).chosen.folder.id == "trials/a")
        try Data(#"{"format": "actionlab-sweep", "format_version": 1, "#.utf8).write(to: scratch.file("sweep.json"))
        let error = #expect(throws: SweepError.self) { try TrialSelection.select(in: scratch.url) }
        #expect(error.map { "\($0)".contains("sweep.json") && "\($0)".contains("cannot be read") } == true, "\(String(describing: error))")
        // Nor a sweep folder that lost its sweep.json (its leaderboard.csv remains); --trial still chooses.
        try FileManager.default.removeItem(at: scratch.file("sweep.json"))
        try Data("rank,seeds\n".utf8).write(to: scratch.file("leaderboard.csv"))
        let gone = #expect(throws: SweepError.self) { try TrialSelection.select(in: scratch.url) }
        #expect(gone.map { "\($0)".contains("it has no sweep.json, yet it holds a sweep's leaderboard.csv") } == true,
                "\(String(describing: gone))")
        #expect(try TrialSelection.select(in: scratch.url, trialID: "a").chosen.folder.id == "trials/a")
    }

    /// A trial that diverged finished without weights: export says why, where it said only that
    /// the trial lacked weights.h5.
    @Test func aDivergedTrialIsNamedAsSuch() throws {
        let scratch = try TemporaryDirectory()
        let trial = scratch.url.appendingPathComponent("trials/d")
        try Self.fakeTrial(trial, validation: nil, files: TrialFolder.requiredFiles.map(\.name).filter { $0 != "weights.h5" })
        try Data(#"{"id": "d", "index": 0, "cell": 0, "seed": 1, "values": [], "splits": {}, "epochs": 1, "diverged": {"epoch": 2, "split": "train", "loss": "nan"}}"#.utf8)
            .write(to: trial.appendingPathComponent(TrialRunner.completionMarker))
        let error = #expect(throws: ExportError.self) { try TrialSelection.select(in: scratch.url) }
        #expect(error.map { "\($0)".contains("trials/d lacks weights.h5 (the trial diverged: ") } == true, "\(String(describing: error))")
    }

    @Test func bestValidationAccuracyThenLowerLossThenFolderName() throws {
        let scratch = try TemporaryDirectory()
        let report = scratch.url
        try Self.fakeTrial(report.appendingPathComponent("trials/s1"), validation: (0.9, 0.40))
        try Self.fakeTrial(report.appendingPathComponent("trials/s2"), validation: (0.95, 0.50))
        try Self.fakeTrial(report.appendingPathComponent("trials/s3"), validation: (0.95, 0.30))
        try Self.fakeTrial(report.appendingPathComponent("trials/b"), validation: (0.95, 0.30))
        try Self.fakeTrial(report.appendingPathComponent("trials/a"), validation: nil)
        try Self.fakeTrial(report.appendingPathComponent("trials/s4"), validation: (1, 0), files: ["config.json"])
        try Self.fakeTrial(report.appendingPathComponent("trials/s5.partial-12"), validation: (1, 0))

        let selection = try TrialSelection.select(in: report)
        #expect(selection.chosen.folder.id == "trials/b")
        #expect(selection.candidates.map(\.folder.id) == ["trials/b", "trials/s3", "trials/s2", "trials/s1", "trials/a"])
        #expect(selection.rule == TrialSelection.bestByValidationRule)
        #expect(selection.incomplete.map(\.id) == ["trials/s4"])
        #expect(selection.incomplete.first?.missing == ["weights.h5", "metrics.json", "provenance.json", "complete.json"])

        let named = try TrialSelection.select(in: report, trialID: "b")
        #expect(named.chosen.folder.id == "trials/b")
        #expect(named.rule == "named with --trial b")

        // A completion marker damaged after the trial finished: the trial is left out as incomplete, and naming it
        // says what it lacks rather than that there is no such trial.
        try Data("{".utf8).write(to: report.appendingPathComponent("trials/b/\(TrialRunner.completionMarker)"))
        let damaged = try TrialSelection.select(in: report)
        #expect(damaged.chosen.folder.id == "trials/s3")
        #expect(damaged.incomplete.map(\.id) == ["trials/b", "trials/s4"])
        #expect(damaged.incomplete.first?.missing == ["a readable complete.json"])
        #expect(throws: ExportError.noCompleteTrials(folder: report.path, missing: ["trials/b lacks a readable complete.json"])) {
            try TrialSelection.select(in: report, trialID: "b")
        }
        #expect(throws: ExportError.noCompleteTrials(
            folder: report.appendingPathComponent("trials/b").path, missing: ["b lacks a readable complete.json"])) {
            try TrialSelection.select(in: report.appendingPathComponent("trials/b"))
        }

        // Weights cut short after the trial finished: left out as well, with HDF5's reason. Before,
        // the trial was chosen and the export failed on HDF5's "truncated file".
        let cut = report.appendingPathComponent("trials/s3/weights.h5")
        let bytes = try Data(contentsOf: cut)
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let truncated = try TrialSelection.select(in: report)
        #expect(truncated.chosen.folder.id == "trials/s2")
        let s3 = try #require(truncated.incomplete.first { $0.id == "trials/s3" })
        #expect(s3.missing.count == 1 && s3.missing[0].hasPrefix("a readable weights.h5 (") && s3.missing[0].contains("truncated"),
                "\(s3.missing)")
    }

    @Test func errorsNameTheFolderAndWhatIsMissing() throws {
        let scratch = try TemporaryDirectory()
        let missing = scratch.file("nowhere")
        #expect(throws: ExportError.folderNotFound(path: missing.path)) { try TrialSelection.select(in: missing) }
        #expect(throws: ExportError.noTrials(folder: scratch.url.path)) { try TrialSelection.select(in: scratch.url) }
        let file = scratch.file("a-file")
        try Data("x".utf8).write(to: file)
        let notAFolder = #expect(throws: ExportError.self) { try TrialSelection.select(in: file) }
        #expect(notAFolder.map(String.init(describing:))?.contains("a-file") == true
                && notAFolder.map(String.init(describing:))?.contains("a file, not a folder") == true, "\(String(describing: notAFolder))")

        let unfinished = scratch.file("unfinished")
        try Self.fakeTrial(unfinished, validation: (1, 0), files: ["weights.h5"])
        #expect(throws: ExportError.noCompleteTrials(
            folder: unfinished.path, missing: ["unfinished lacks config.json, metrics.json, provenance.json, complete.json"])) {
            try TrialSelection.select(in: unfinished)
        }

        let report = scratch.file("report")
        try Self.fakeTrial(report.appendingPathComponent("trials/s1"), validation: nil)
        // One trial and no validation scores (validation.strategy "none"): nothing to choose.
        let only = try TrialSelection.select(in: report)
        #expect(only.chosen.folder.id == "trials/s1" && only.rule.hasPrefix("the sweep's only trial"), "\(only.rule)")
        // Two, and nothing to rank them by: an error naming both.
        try Self.fakeTrial(report.appendingPathComponent("trials/s2"), validation: nil)
        #expect(throws: ExportError.noValidationMetrics(folder: report.path, candidates: ["trials/s1", "trials/s2"])) {
            try TrialSelection.select(in: report)
        }
        try FileManager.default.removeItem(at: report.appendingPathComponent("trials/s2"))
        #expect(throws: ExportError.unknownTrial("s9", folder: report.path, available: ["trials/s1"])) {
            try TrialSelection.select(in: report, trialID: "s9")
        }
        // Files that exist but are not what they claim: the message names the file and the key.
        try Data().write(to: report.appendingPathComponent("trials/s1/config.json"))
        let error = #expect(throws: ExportError.self) {
            try TrialArtifacts(folder: TrialFolder(url: report.appendingPathComponent("trials/s1"), id: "trials/s1"))
        }
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("s1/config.json: cannot read"))
        #expect(throws: ExportError.unknownFormat("tflite", known: ["onnx", "safetensors", "h5", "coreml"])) {
            try ExportFormat.parseList("onnx,tflite")
        }
        #expect(try ExportFormat.parseList("h5, onnx") == [.h5, .onnx])
    }

    /// Trains two seeds of a small TCN on BasicMotions, exports the best, and checks the files
    /// with onnx, onnxruntime and safetensors against ActionLab's `Evaluator` on the test windows.
    @Test func exportedFilesAgreeWithTheReferenceImplementations() throws {
        let scratch = try TemporaryDirectory()
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            $0.training.epochs = 4
            $0.training.seeds = [1, 2]
            $0.model.update(TemporalConvolutionalFamily.Settings.self) {
                $0.channels = [16, 16]
                $0.kernelSizes = [5, 3]
            }
        }
        let configuration = plan.base
        let report = try SweepRunner(plan: plan, manifestURL: manifest).run()

        let output = scratch.file("export")
        let result = try ModelExporter().export(from: report, to: output)
        #expect(result.files.map(\.lastPathComponent) == ["model.onnx", "weights.safetensors", "weights.h5", "config.json", "model-card.md"])
        #expect(result.selection.candidates.map(\.folder.id).sorted() == plan.trials.map { "trials/\($0.id)" }.sorted())
        #expect(result.selection.chosen == TrialSelection.ranked(result.selection.candidates)[0])
        #expect(result.selection.rule.hasPrefix("best configuration by validation.accuracy (mean over 2 seeds"))
        let card = try String(contentsOf: output.appendingPathComponent("model-card.md"), encoding: .utf8)
        for expected in [
            "trial \(result.selection.chosen.folder.id)", result.selection.rule, "**exported**",
            "8dc43cc6306cb679c888c01e26f91772ac4441a916da43bac8b79734a538b9d6", "`poses`: float32 `[100, 3, 2]`",
            "`labelProbabilities`: float32 `[4]`", "Per class, test windows", "## Intended use and limitations",
        ] {
            #expect(card.contains(expected), "model card lacks '\(expected)'")
        }
        // Exporting again gives the same bytes.
        let again = try ModelExporter().export(from: report, to: scratch.file("again"))
        for file in again.files {
            #expect(try Data(contentsOf: file) == Data(contentsOf: output.appendingPathComponent(file.lastPathComponent)),
                    "\(file.lastPathComponent) differs between exports")
        }

        // Exporting into a folder that holds another trial's export replaces that export whole:
        // a format not written this time is removed, not left to describe the other model; a
        // file that is no export's is kept.
        let other = try #require(result.selection.candidates.first { $0.folder != result.selection.chosen.folder })
        let replaced = scratch.file("replaced")
        _ = try ModelExporter().export(from: report, trialID: other.folder.url.lastPathComponent, to: replaced)
        try Data("mine".utf8).write(to: replaced.appendingPathComponent("notes.txt"))
        let onlyH5 = try ModelExporter(formats: [.h5]).export(from: report, to: replaced)
        #expect(onlyH5.files.map(\.lastPathComponent) == ["weights.h5", "config.json", "model-card.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: replaced.path).sorted()
                == ["config.json", "model-card.md", "notes.txt", "weights.h5"])
        for name in ["weights.h5", "config.json"] {
            #expect(try Data(contentsOf: replaced.appendingPathComponent(name)) == Data(contentsOf: output.appendingPathComponent(name)),
                    "\(name) is not the chosen trial's")
        }

        // A weights.h5 with a value that is not finite (bytes overwritten, or a diverged training)
        // is refused before any prediction, naming the file and the tensor.
        let damaged = scratch.file("damaged")
        try FileManager.default.copyItem(at: output, to: damaged)
        var checkpoint = try Checkpoint(contentsOf: damaged.appendingPathComponent("weights.h5"))
        let (name, tensor) = checkpoint.model[1]
        var values = tensor.values
        values[values.count / 2] = .nan
        checkpoint.model[1].tensor = Tensor(shape: tensor.shape, values: values)
        try checkpoint.write(to: damaged.appendingPathComponent("weights.h5"))
        let refusal = #expect(throws: ExportError.self) { try TrainedModel(folder: damaged) }
        let message = refusal.map(String.init(describing:)) ?? ""
        #expect(message.contains("damaged/weights.h5") && message.contains("'\(name)' holds 1 of \(values.count) values that are not finite"),
                "\(message)")

        // A config.json edited to another frame rate than the weights were trained at: every input
        // was resampled to it without a word.
        let retimed = scratch.file("retimed")
        try FileManager.default.copyItem(at: output, to: retimed)
        let configURL = retimed.appendingPathComponent("config.json")
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any])
        var resolved = try #require(config["configuration"] as? [String: Any])
        var windowSettings = try #require(resolved["windows"] as? [String: Any])
        let rate = try #require(windowSettings["frameRate"] as? Double)
        windowSettings["frameRate"] = rate / 2
        resolved["windows"] = windowSettings
        config["configuration"] = resolved
        try JSONSerialization.data(withJSONObject: config).write(to: configURL)
        let retimedRefusal = #expect(throws: ExportError.self) { try TrainedModel(folder: retimed) }
        #expect(retimedRefusal.map { "\($0)".contains("frame_rate \(rate) differs from config.json's windows.frameRate \(rate / 2)") } == true,
                "\(String(describing: retimedRefusal))")

        // One changed byte inside a tensor, still a finite value, fails its Fletcher-32 checksum.
        let flipped = scratch.file("flipped")
        try FileManager.default.copyItem(at: output, to: flipped)
        let original = try Checkpoint(contentsOf: output.appendingPathComponent("weights.h5"))
        let (flippedName, flippedTensor) = original.model[1]
        let flippedURL = flipped.appendingPathComponent("weights.h5")
        var bytes = [UInt8](try Data(contentsOf: flippedURL))
        let needle = flippedTensor.values.prefix(4).flatMap { value in withUnsafeBytes(of: value) { [UInt8]($0) } }
        let offsets = (0...(bytes.count - needle.count)).filter { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        try #require(offsets.count == 1, "the tensor's first values should occur once in weights.h5")
        bytes[offsets[0] + 2] ^= 0x01
        try Data(bytes).write(to: flippedURL)
        let checksumRefusal = #expect(throws: (any Error).self) { try TrainedModel(folder: flipped) }
        let checksumMessage = checksumRefusal.map(String.init(describing:)) ?? ""
        #expect(checksumMessage.contains("flipped/weights.h5") && checksumMessage.contains(flippedName)
                && checksumMessage.lowercased().contains("checksum"), "\(checksumMessage)")

        // ActionLab's probabilities on the real test windows, from the exported trial's weights.
        let artifacts = try TrialArtifacts(folder: result.selection.chosen.folder)
        let model = try artifacts.makeModel()
        let dataset = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let windows = try WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding,
            treatsZeroJointsAsUndetected: configuration.features.layout.marksUndetectedJointsWithZeros
        ).windows(of: dataset.test, labels: dataset.labels)
        #expect(windows.labels == artifacts.labels)
        let expected = try Evaluator(batchSize: 16, aggregation: .mean).predict(model, on: windows).probabilities
        let windowsFile = scratch.file("windows.f32")
        let expectedFile = scratch.file("expected.f32")
        try littleEndianFloat32Data(windows.values).write(to: windowsFile)
        try littleEndianFloat32Data(expected).write(to: expectedFile)

        guard try PythonOracle.requireModules(["h5py", "numpy", "onnx", "onnxruntime", "safetensors"]) else { return }
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-onnx.py"), encoding: .utf8)
        let summary = try #require(try PythonOracle.json(script, arguments: [
            output.path, windowsFile.path, "\(windows.count)", "\(windows.windowSize)", "\(windows.channelCount)",
            "\(windows.jointCount)", expectedFile.path, "\(windows.labels.count)",
        ]) as? [String: Any])
        let difference = try #require(summary["max_abs_difference"] as? Double)
        #expect(difference <= 1e-5)
        #expect(summary["windows"] as? Int == 40)
        print("export check: \(summary)")
        try Self.checkCoreMLExport(from: report, windows: windows, windowsFile: windowsFile, scratch: scratch)
    }

    /// Exports `report`'s best trial with `--format onnx,h5,coreml` and checks `model.mlmodel` with
    /// `scripts/check-coreml.py`: Create ML's interface, the labels and metadata, the weights of
    /// `weights.h5` bit for bit, and its layers in NumPy against onnxruntime within 1e-5.
    static func checkCoreMLExport(
        from report: URL, windows: WindowSet, windowsFile: URL, scratch: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let output = scratch.file("export-coreml")
        let result = try ModelExporter(formats: [.onnx, .h5, .coreml]).export(from: report, to: output)
        #expect(result.files.map(\.lastPathComponent) == ["model.onnx", "weights.h5", "model.mlmodel", "config.json", "model-card.md"],
                sourceLocation: sourceLocation)
        guard try PythonOracle.requireModules(["coremltools", "h5py", "numpy", "onnxruntime"]) else { return }
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-coreml.py"), encoding: .utf8)
        let summary = try #require(try PythonOracle.json(script, arguments: [
            output.path, windowsFile.path, "\(windows.count)", "\(windows.windowSize)", "\(windows.channelCount)", "\(windows.jointCount)",
        ]) as? [String: Any], sourceLocation: sourceLocation)
        let difference = try #require(summary["max_abs_difference"] as? Double, sourceLocation: sourceLocation)
        #expect(difference <= 1e-5, "\(summary)", sourceLocation: sourceLocation)
        #expect(summary["labels"] as? [String] == windows.labels, sourceLocation: sourceLocation)
        print("Core ML export check: \(summary)")
    }

    /// `mlp` and `stgcn-small` trials export to ONNX graphs that onnxruntime evaluates to
    /// ActionLab's probabilities within 1e-5 on the real test windows.
    @Test(arguments: [ModelConfiguration.mlp(hiddenUnits: 32), .stgcn(.stgcnSmall)])
    func otherModelKindsExportToEquivalentONNX(model: ModelConfiguration) throws {
        let scratch = try TemporaryDirectory()
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            $0.training.epochs = 3
            $0.training.seeds = [1]
            $0.model = model
        }
        try Self.checkExport(plan: plan, manifest: manifest, scratch: scratch, expectedWindows: 40)
    }

    /// A body-pose model with `model.normalizeInput` (centring and scaling inside the model)
    /// exports to ONNX that takes raw keypoints, on SYNTHETIC Vision-18 data.
    @Test(arguments: [ModelConfiguration.tcn(channels: [8], kernelSizes: [3], normalizeInput: true), .stgcn(.stgcnSmall, normalizeInput: true)])
    func normalizedBodyPoseModelsExportToEquivalentONNX(model: ModelConfiguration) throws {
        let scratch = try TemporaryDirectory()
        let dataset = SyntheticDataset(actions: Array(SyntheticAction.defaultSet.prefix(3)), sequencesPerClass: 8, seed: 2)
        try dataset.write(to: scratch.file("data/synthetic"))
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/synthetic.json5")
        let plan = try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
            $0.training.epochs = 2
            $0.training.seeds = [1]
            $0.model = model
        }
        try Self.checkExport(plan: plan, manifest: manifest, scratch: scratch, expectedWindows: nil, split: "validation")
    }

    /// Runs the plan, exports its best trial and compares onnxruntime with ActionLab's `Evaluator`.
    static func checkExport(
        plan: SweepPlan, manifest: URL, scratch: TemporaryDirectory, expectedWindows: Int?, split: String = "test",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let configuration = plan.base
        let report = try SweepRunner(plan: plan, manifestURL: manifest).run()
        let output = scratch.file("export")
        let result = try ModelExporter().export(from: report, to: output)
        let artifacts = try TrialArtifacts(folder: result.selection.chosen.folder)
        let model = try artifacts.makeModel()
        let dataset = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let windows = try WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding,
            treatsZeroJointsAsUndetected: configuration.features.layout.marksUndetectedJointsWithZeros
        ).windows(of: split == "test" ? dataset.test : dataset.validation, labels: dataset.labels)
        let expected = try Evaluator(batchSize: 16, aggregation: .mean).predict(model, on: windows).probabilities
        let windowsFile = scratch.file("windows.f32")
        let expectedFile = scratch.file("expected.f32")
        try littleEndianFloat32Data(windows.values).write(to: windowsFile)
        try littleEndianFloat32Data(expected).write(to: expectedFile)
        guard try PythonOracle.requireModules(["h5py", "numpy", "onnx", "onnxruntime", "safetensors"]) else { return }
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-onnx.py"), encoding: .utf8)
        let summary = try #require(try PythonOracle.json(script, arguments: [
            output.path, windowsFile.path, "\(windows.count)", "\(windows.windowSize)", "\(windows.channelCount)",
            "\(windows.jointCount)", expectedFile.path, "\(windows.labels.count)",
        ]) as? [String: Any], sourceLocation: sourceLocation)
        let difference = try #require(summary["max_abs_difference"] as? Double, sourceLocation: sourceLocation)
        #expect(difference <= 1e-5, "\(configuration.model.kind): \(summary)", sourceLocation: sourceLocation)
        if let expectedWindows { #expect(summary["windows"] as? Int == expectedWindows, sourceLocation: sourceLocation) }
        print("export check (\(configuration.model.kind)): \(summary)")
        if !configuration.model.normalizeInput {
            try checkCoreMLExport(from: report, windows: windows, windowsFile: windowsFile, scratch: scratch, sourceLocation: sourceLocation)
        }
    }

}
