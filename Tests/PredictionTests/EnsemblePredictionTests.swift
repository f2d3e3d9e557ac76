import ActionLabTestSupport
import Dataset
import Export
import FeatureCache
import Foundation
import Manifest
import NeuralNetwork
import Prediction
import SweepTestSupport
import Testing
import Training

/// `actionlab predict` on the export folder of a stream ensemble (`export --ensemble`): the
/// predictor runs the members fused, with the probabilities onnxruntime gives for the exported
/// `model.onnx` on the real UTD-MHAD test windows; a damaged `ensemble.json` is a clear error.
@Suite(.serialized) struct EnsemblePredictionTests {
    @Test func anEnsembleExportFolderPredictsWhatItsONNXGraphComputes() throws {
        let scratch = try TemporaryDirectory()
        let sweep = try RealDataSweeps.utdMHADStreams(in: scratch.url)
        let export = scratch.file("ensemble")
        _ = try EnsembleExporter().export(from: sweep.folder, to: export)
        let model = try PredictionModel(folder: export)
        #expect(model.origin.contains("stream ensemble joint+bone+jointMotion+boneMotion of seed 1"))
        let ensemble = try #require(model.classifier as? LateFusionEnsemble)
        #expect(ensemble.members.map(\.name) == ["joint", "bone", "jointMotion", "boneMotion"])
        let expectedWeights: [Double] = [2, 2, 1, 1].map { $0 / 6 }
        #expect(ensemble.weights == expectedWeights)

        let configuration = sweep.plan.base
        let cache = try FeatureCache(directory: configuration.features.cache)
        let dataset = try DatasetLoader(configuration: configuration, cache: cache).load()
        let windows = try WindowBuilder(configuration.windows, layout: configuration.features.layout)
            .windows(of: dataset.test, labels: dataset.labels)
        let probabilities = try Evaluator(batchSize: 1, aggregation: .mean).predict(model.classifier, on: windows).probabilities

        // A uniform-sampling model needs a window duration: missing, it is named as missing.
        #expect(throws: PredictionError.missingSetting(name: "--window-duration", expected: "the seconds one window covers: this model "
            + "was trained with uniform sampling (each recording resampled to \(configuration.windows.size) frames), so a stream needs "
            + "a window duration, such as a typical performance's length, between 1 frame and \(WindowConfiguration.maximumSize) "
            + "frames at \(configuration.features.frameRate) fps")) {
            _ = try model.makePredictor(settings: .init(stride: 1, confidenceThreshold: 0.5, minimumPoseFraction: 0), windowDuration: nil)
        }
        // A whole test recording through the predictor (uniform sampling: one window of the
        // recording's own duration) gives the evaluator's probabilities for it.
        let sequence = try #require(dataset.test.first)
        let pose = try sequence.poseSequence()
        let run = PredictionRun(
            model: model, settings: PredictionSettings(stride: 1, confidenceThreshold: 0.5, minimumPoseFraction: 0),
            windowDuration: Double(pose.frameCount) / configuration.features.frameRate, cache: cache)
        let input = PredictionInput(file: URL(fileURLWithPath: sequence.id), source: configuration.dataset.sources[0], origin: sequence.id)
        let stream = try run.predict(pose, input: input, name: sequence.id)
        let first = try #require(stream.predictions.first)
        let reference = Array(probabilities[0..<windows.labels.count])
        #expect(zip(first.probabilities, reference).allSatisfy { abs($0 - $1) <= 1e-5 }, "\(first.probabilities) vs \(reference)")

        guard try PythonOracle.requireModules(["numpy", "onnxruntime"]) else { return }
        try littleEndianFloat32Data(windows.values).write(to: scratch.file("windows.f32"))
        try littleEndianFloat32Data(probabilities).write(to: scratch.file("predicted.f32"))
        let summary = try #require(try PythonOracle.json(
            """
            import json, os, sys
            import numpy as np, onnxruntime
            folder, windows_path, predicted_path = sys.argv[1:4]
            n, t, c, j, k = (int(v) for v in sys.argv[4:9])
            session = onnxruntime.InferenceSession(os.path.join(folder, "model.onnx"), providers=["CPUExecutionProvider"])
            windows = np.fromfile(windows_path, dtype="<f4").reshape(n, t, c, j)
            predicted = np.fromfile(predicted_path, dtype="<f4").reshape(n, k)
            outputs = np.stack([session.run(["labelProbabilities"], {"poses": w})[0] for w in windows])
            print(json.dumps({"max_abs_difference": float(np.max(np.abs(outputs - predicted))), "windows": n}))
            """, arguments: [
                export.path, scratch.file("windows.f32").path, scratch.file("predicted.f32").path, "\(windows.count)",
                "\(windows.windowSize)", "\(windows.channelCount)", "\(windows.jointCount)", "\(windows.labels.count)",
            ]) as? [String: Any])
        print("ensemble predict check: \(summary)")
        #expect(summary["windows"] as? Int == 430)
        #expect((summary["max_abs_difference"] as? Double ?? 1) <= 1e-5, "\(summary)")

        // A damaged description names the file; a member folder outside the export is refused.
        let description = export.appendingPathComponent(EnsembleExporter.descriptionName)
        let original = try Data(contentsOf: description)
        try Data("{\"format\": ".utf8).write(to: description)
        #expect { try PredictionModel(folder: export) } throws: { "\($0)".contains("ensemble.json: cannot read") }
        let exported = try JSONDecoder().decode(EnsembleExporter.Description.self, from: original)
        #expect(exported.digest == (try exported.contentDigest()))
        // A fusion weight edited afterwards is refused (it fused other weights than model.onnx's).
        var reweighted = exported
        reweighted.members[0].weight = 0
        try JSONEncoder().encode(reweighted).write(to: description)
        #expect { try PredictionModel(folder: export) } throws: { "\($0)".contains("were changed after the export") }
        // An export written before the digest (none) still reads.
        var legacy = exported
        legacy.digest = nil
        try JSONEncoder().encode(legacy).write(to: description)
        #expect(try PredictionModel(folder: export).trained.labels == exported.labels)
        // Edited with the digest made again: a member folder outside the export is refused.
        var edited = exported
        edited.members[1].folder = "../elsewhere"
        edited.digest = try edited.contentDigest()
        try JSONEncoder().encode(edited).write(to: description)
        #expect { try PredictionModel(folder: export) } throws: { "\($0)".contains("lies outside the export folder") }
        // A member file changed after the export is caught by its recorded SHA-256.
        try original.write(to: description)
        let weights = export.appendingPathComponent("members/bone/weights.h5")
        try FileManager.default.copyItem(at: export.appendingPathComponent("members/joint/weights.h5"), to: scratch.file("joint.h5"))
        try FileManager.default.removeItem(at: weights)
        try FileManager.default.copyItem(at: scratch.file("joint.h5"), to: weights)
        #expect { try PredictionModel(folder: export) } throws: { "\($0)".contains("the file changed after the export") }
    }
}
