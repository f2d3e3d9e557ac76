import ActionLabTestSupport
import Dataset
import FeatureCache
import Foundation
import Manifest
import NeuralNetwork
import Reports
import Sweeps
import Testing
import Training

/// What a real OpenPose data set showed about the reports (issue [real-skeleton]), on data of
/// that shape: BODY_25 people in pixels of a 640×480 frame, `<label>/<clip>/<clip>_<frame>_keypoints.json`,
/// one keypoint a little outside the frame (`y = 482`).
@Suite struct OpenPoseReportTests {
    /// Collects log lines from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static let labels = ["squat", "wave"]

    /// Writes `clips` clips of 24 frames per label: `wave` moves the right wrist sideways,
    /// `squat` moves the whole body up and down; clip `wave/clip3` puts its right ankle at
    /// y = 482 px in frame 2 (the only keypoint outside the image).
    static func writeDataset(to folder: URL, clips: Int, clipOffset: Int = 0) throws {
        for label in labels {
            for clip in clipOffset..<(clipOffset + clips) {
                for frame in 0..<24 {
                    let phase = Double(frame) / 24 * 2 * Double.pi + Double(clip) * 0.3
                    var person: [Double] = []
                    for joint in 0..<25 {
                        var x = 250 + Double(joint % 5) * 30
                        var y = 80 + Double(joint) * 14
                        if label == "wave", joint == 4 { x += 120 * sin(phase) }
                        if label == "squat" { y += 40 * sin(phase) }
                        if label == "wave", clip == 3, frame == 2, joint == 11 { y = 482 }
                        person += [x, y, 0.9]
                    }
                    let name = "\(label)/clip\(clip)/clip\(clip)_\(String(format: "%012d", frame))_keypoints.json"
                    let keypoints = person.map { "\($0)" }.joined(separator: ",")
                    _ = try writeFixture("{\"version\": 1.3, \"people\": [{\"pose_keypoints_2d\": [\(keypoints)]}]}", named: name, in: folder)
                }
            }
        }
    }

    /// A plan over an OpenPose training folder (5 clips a label, 2 to validation) and test folder.
    static func plan(_ scratch: TemporaryDirectory, weights: String) throws -> SweepPlan {
        try writeDataset(to: scratch.file("train"), clips: 5)
        try writeDataset(to: scratch.file("test"), clips: 2, clipOffset: 10)
        let manifest = try writeFixture("""
            {
              name: "openpose-like",
              dataset: {
                sources: [{ format: "openpose", path: "train", imageSize: [640, 480] }],
                validation: { strategy: "automatic", fraction: 0.4 },
                test: { sources: [{ format: "openpose", path: "test", imageSize: [640, 480] }] },
              },
              features: { layout: "vision18", frameRate: 30 },
              windows: { duration: 0.5, stride: 5 },
              model: { kind: "mlp", hiddenUnits: 16 },
              training: { epochs: 8, batchSize: 8, learningRate: 0.01, seeds: [0], weights: "\(weights)" },
            }
            """, named: "openpose.json5", in: scratch.url)
        return try SweepPlan.load(contentsOf: manifest, baseDirectory: scratch.url).adjusting {
            $0.features.cache = scratch.file("cache")
            $0.output.directory = scratch.file("reports")
        }
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test("provenance.json lists each clip under the split it went to, and the clamped keypoints; one warning per source")
    func splitMembershipAndClamping() throws {
        let scratch = try TemporaryDirectory(prefix: "openpose-report")
        let plan = try Self.plan(scratch, weights: "last")
        let lines = Lines()
        let folder = try SweepRunner(plan: plan, manifestURL: nil, log: lines.append).run()
        let trial = try #require(plan.trials.first)
        let provenance = try Self.json(folder.appendingPathComponent("trials/\(trial.id)/provenance.json"))
        let records = try #require(provenance["data"] as? [[String: Any]])
        #expect(records.count == 14, "10 training clips and 4 test clips")

        var bySplit: [String: [String]] = [:]
        for record in records {
            let path = try #require(record["path"] as? String)
            let splits = try #require(record["splits"] as? [String: [String]])
            #expect(splits.values.flatMap { $0 } == [path], "a clip folder is one recording, on one side: \(splits)")
            for (split, groups) in splits { bySplit[split, default: []] += groups }
            if record["role"] as? String == "test" { #expect(splits.keys.sorted() == ["test"]) }
            let clamped = try #require(record["clamped_keypoints"] as? Int)
            #expect(clamped == (path.hasSuffix("train/wave/clip3") ? 1 : 0), "\(path)")
        }
        #expect(bySplit["validation"]?.count == 4, "2 of 5 clips a label")
        #expect(bySplit["train"]?.count == 6)
        #expect(bySplit["test"]?.count == 4)
        // The membership is the split the trial trained on.
        let data = try DatasetLoader(configuration: trial.configuration, cache: FeatureCache(directory: scratch.file("cache"))).load()
        #expect(Set(data.validation.map(\.group)) == Set(bySplit["validation"] ?? []))
        #expect(Set(data.train.map(\.group)) == Set(bySplit["train"] ?? []))

        let warnings = lines.all.filter { $0.contains("outside the image") }
        #expect(warnings.count == 1, "once per source: \(warnings)")
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("warning: train: \(scratch.file("train").path): 1 keypoint was outside the image (imageSize [640, 480])"))
        #expect(warning.contains("clip3_000000000002_keypoints.json frame 2 joint rightAnkle at (280.0, 482.0) px"), "\(warning)")

        // A second load reads the count from the cache entries.
        let again = Lines()
        _ = try DatasetLoader(configuration: trial.configuration, cache: FeatureCache(directory: scratch.file("cache")), log: again.append).load()
        #expect(again.all.filter { $0.contains("1 keypoint was outside the image") }.count == 1)
        #expect(again.all.contains { $0.contains("(10 from the cache, 0 imported)") })
    }

    @Test("training.weights bestValidation: the best validation epoch's weights are scored, saved and named")
    func bestValidationWeights() throws {
        let scratch = try TemporaryDirectory(prefix: "openpose-weights")
        let plan = try Self.plan(scratch, weights: "bestValidation")
        let configuration = plan.base
        #expect(configuration.training.weights == .bestValidation)
        #expect(configuration.resolvedJSON().contains("\"weights\": \"bestValidation\""))

        let data = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let builder = WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding)
        let train = try builder.windows(of: data.train, labels: data.labels)
        let validation = try builder.windows(of: data.validation, labels: data.labels)
        let best = try Trainer(configuration: configuration).fit(train: train, validation: validation, seed: 0)
        #expect(best.history.count == 8, "no early stopping: every epoch trains")
        let report = RunReport(seed: 0, history: best.history, metrics: [:], savedEpoch: best.savedEpoch)
        #expect(best.savedEpoch == report.bestValidationEpoch?.epoch)

        // The kept weights are exactly those after that epoch: a run of that many epochs keeping
        // its last weights ends with the same tensors (the learning rate is constant).
        var shorter = configuration
        shorter.training.weights = .last
        shorter.training.epochs = best.savedEpoch
        let last = try Trainer(configuration: shorter).fit(train: train, validation: validation, seed: 0)
        #expect(last.savedEpoch == best.savedEpoch)
        #expect(last.model.stateDictionary().map(\.tensor) == best.model.stateDictionary().map(\.tensor))

        // Without a validation set there is no best validation epoch to keep.
        #expect(throws: TrainingError.self) { _ = try Trainer(configuration: configuration).fit(train: train, validation: nil, seed: 0) }

        let folder = try SweepRunner(plan: plan, manifestURL: nil).run()
        let trial = try #require(plan.trials.first)
        let complete = try Self.json(folder.appendingPathComponent("trials/\(trial.id)/complete.json"))
        #expect(complete["saved_epoch"] as? Int == best.savedEpoch)
        #expect(complete["best_epoch"] as? Int == best.savedEpoch)
        let weights = try Checkpoint(contentsOf: folder.appendingPathComponent("trials/\(trial.id)/weights.h5"))
        #expect(weights.metadata["saved_epoch"] == "\(best.savedEpoch)")
        #expect(weights.model.map(\.tensor) == best.model.stateDictionary().map(\.tensor), "weights.h5 holds the best epoch's weights")
        // The test scores are those of the kept weights.
        let evaluator = Evaluator(batchSize: configuration.training.batchSize, aggregation: configuration.evaluation.aggregation)
        let test = try evaluator.evaluate(best.model, on: try builder.windows(of: data.test, labels: data.labels))
        let metrics = try Self.json(folder.appendingPathComponent("trials/\(trial.id)/metrics.json"))
        #expect((metrics["test"] as? [String: Any])?["accuracy"] as? Double == test.window.accuracy)

        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("| best validation-accuracy epoch | \(best.savedEpoch) | \(best.savedEpoch) |"), "epochs as integers:\n\(summary)")
        #expect(summary.contains("| scored epoch (the weights scored and saved) | \(best.savedEpoch) | \(best.savedEpoch) |"))
        #expect(summary.contains("| epochs trained | 8 | 8 |"))
        #expect(summary.contains("weights of the best validation epoch (`training.weights` \"bestValidation\")"))
        #expect(!summary.contains("\(best.savedEpoch).0000"))
        let curves = try String(contentsOf: folder.appendingPathComponent("trials/\(trial.id)/curves.md"), encoding: .utf8)
        #expect(curves.contains("is theirs"))
        #expect(curves.contains(best.savedEpoch == 8 ? "after the last epoch (8)" : "after epoch \(best.savedEpoch)"))

        // The leaderboard's seeds column counts the seeds; seed_values lists them.
        let leaderboard = try Table.parse(csv: String(contentsOf: folder.appendingPathComponent("leaderboard.csv"), encoding: .utf8))
        let row = try #require(leaderboard.rows.first)
        let header = leaderboard.header
        #expect(header.prefix(4) == ["rank", "cell", "seeds", "seed_values"])
        #expect(row[2] == "1" && row[3] == "0")
    }

    @Test("validate --data: windows and recordings per split and label")
    func windowCounts() throws {
        let scratch = try TemporaryDirectory(prefix: "openpose-windows")
        let plan = try Self.plan(scratch, weights: "last")
        let lines = try SweepRunner(plan: plan, manifestURL: nil).checkData()
        // 24 frames, windows of 15 frames every 5: starts 0, 5 → 2 windows a clip.
        #expect(lines.contains("windows of 15 frames, stride 5:"))
        let table = lines.joined(separator: "\n")
        #expect(table.contains("  | split | label | recordings | sequences | windows |"))
        for expected in [
            "| train | squat | 3 | 3 | 6 |", "| train | wave | 3 | 3 | 6 |", "| train | all | 6 | 6 | 12 |",
            "| validation | squat | 2 | 2 | 4 |", "| validation | all | 4 | 4 | 8 |",
            "| test | wave | 2 | 2 | 4 |", "| test | all | 4 | 4 | 8 |",
        ] {
            #expect(table.contains(expected), "\(expected) in\n\(table)")
        }
    }
}
