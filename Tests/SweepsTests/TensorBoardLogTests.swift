import ActionLabTestSupport
import Foundation
import Reports
import Manifest
import Sweeps
import SweepTestSupport
import TensorBoard
import Testing
import Training

/// Sweep folders read by TensorBoard's own reader (`scripts/read-tensorboard.py`: the event
/// accumulator, which checks every record's CRC-32C, and the HParams plugin's protobufs).
@Suite(.serialized) struct TensorBoardLogTests {
    /// What the reader found, decoded from its JSON.
    struct Read: Decodable {
        struct Experiment: Decodable {
            struct HParam: Decodable { var name: String; var type: String; var values: [JSONValue] }
            struct Metric: Decodable { var tag: String; var group: String; var dataset: String }
            var name: String
            var hparams: [HParam]
            var metrics: [Metric]
        }
        struct TrialEvents: Decodable {
            var hparams: [String: JSONValue]
            var status: String
            var scalars: [String: [[Double]]]
        }
        var experiment: Experiment
        var trials: [String: TrialEvents]
    }

    /// A number, string or Boolean of the reader's JSON.
    enum JSONValue: Decodable, Equatable {
        case number(Double), string(String), bool(Bool)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    static func read(_ sweep: URL) throws -> Read? {
        guard try PythonOracle.requireModules(["tensorboard"]) else { return nil }
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/read-tensorboard.py"), encoding: .utf8)
        let result = try PythonOracle.run(script, arguments: [sweep.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        return try JSONDecoder().decode(Read.self, from: Data(result.output.utf8))
    }

    /// `scalars[tag]` as (epoch, value) pairs.
    static func curve(_ events: Read.TrialEvents, _ tag: String) -> [(Int, Float)] {
        (events.scalars[tag] ?? []).map { (Int($0[0]), Float($0[1])) }
    }

    /// Every trial's curves equal `curves.csv` (as 32-bit floats, TensorBoard's scalar type), its
    /// scores `metrics.json`, its hyperparameters its swept values and seed; the experiment lists
    /// every swept parameter with the grid's values, and every metric.
    @Test func sweepEventFilesMatchTheReportFiles() throws {
        let sweep = try RealDataSweeps.basicMotions()
        let (plan, folder) = (sweep.plan, sweep.folder)
        guard let read = try Self.read(folder) else { return }

        #expect(read.experiment.name == folder.lastPathComponent)
        #expect(read.experiment.hparams.map(\.name) == ["windows.duration", "augmentation", "seed"])
        #expect(read.experiment.hparams.map(\.type) == ["DATA_TYPE_FLOAT64", "DATA_TYPE_STRING", "DATA_TYPE_FLOAT64"])
        #expect(read.experiment.hparams[0].values == [.number(2.5), .number(5), .number(10)])
        #expect(read.experiment.hparams[1].values == [.string("none"), .string("full"), .string("noise")])
        #expect(read.experiment.hparams[2].values == Set(plan.trials.map(\.seed)).sorted().map { .number(Double($0)) })
        #expect(read.experiment.metrics.map(\.tag) == TensorBoardLog.metrics.map(\.tag))
        #expect(read.experiment.metrics.first { $0.tag == "scores/validation/accuracy" }?.dataset == "DATASET_VALIDATION")

        #expect(read.trials.count == plan.trials.count)
        for trial in plan.trials {
            let events = try #require(read.trials[trial.id], "no event file for trial \(trial.id)")
            let trialFolder = folder.appendingPathComponent("trials/\(trial.id)")
            let history = try RunReport.readHistory(from: trialFolder.appendingPathComponent("curves.csv"))
            #expect(history.count == RealDataSweeps.basicMotionsEpochs)
            #expect(Self.curve(events, "train/loss").map(\.0) == history.map(\.epoch))
            #expect(Self.curve(events, "train/loss").map(\.1) == history.map { Float($0.trainLoss) })
            #expect(Self.curve(events, "train/accuracy").map(\.1) == history.map { Float($0.trainAccuracy) })
            #expect(Self.curve(events, "validation/loss").map(\.1) == history.compactMap { $0.validationLoss.map(Float.init) })
            #expect(Self.curve(events, "validation/accuracy").map(\.1) == history.compactMap { $0.validationAccuracy.map(Float.init) })
            let rate = trial.configuration.training.learningRate
            #expect(Self.curve(events, "learning_rate").map(\.1) == (0..<RealDataSweeps.basicMotionsEpochs).map { Float(rate / Double(1 << $0)) })

            let metrics = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: trialFolder.appendingPathComponent("metrics.json"))) as? [String: Any])
            for split in ["train", "validation", "test"] {
                let scores = try #require(metrics[split] as? [String: Any])
                let sequence = try #require(scores["sequence"] as? [String: Any])
                #expect(Self.curve(events, "scores/\(split)/accuracy").map(\.1) == [Float(try #require(scores["accuracy"] as? Double))])
                #expect(Self.curve(events, "scores/\(split)/macro_f1").map(\.1) == [Float(try #require(scores["macro_f1"] as? Double))])
                #expect(Self.curve(events, "scores/\(split)/sequence_accuracy").map(\.1) == [Float(try #require(sequence["accuracy"] as? Double))])
            }
            var expected: [String: JSONValue] = ["seed": .number(Double(trial.seed))]
            for value in trial.values { expected[value.path] = Double(value.value).map(JSONValue.number) ?? .string(value.value.replacingOccurrences(of: "\"", with: "")) }
            #expect(events.hparams == expected)
            #expect(events.status == "STATUS_SUCCESS")
        }
    }

    /// A trial killed after a checkpoint and resumed by the next run: its event file holds every
    /// epoch (those before the kill included), reads without a CRC error, and no temporary
    /// file is left in its `tensorboard/` folder.
    @Test func resumedTrialWritesACompleteEventFile() throws {
        let scratch = try TemporaryDirectory(prefix: "tensorboard-resumed")
        let plan = try InterruptedSweepTests.plan(scratch: scratch.url)
        let trial = try #require(plan.trials.first)
        let sweep = try SweepRunner(plan: plan, manifestURL: nil).run(output: scratch.file("sweep"), prepareOnly: true)
        _ = try InterruptedSweepTests.killedAfterCheckpoint(trial, in: sweep)
        _ = try SweepRunner.resuming(sweep).run(output: sweep)
        guard let read = try Self.read(sweep) else { return }
        let events = try #require(read.trials[trial.id])
        #expect(Self.curve(events, "train/loss").map(\.0) == [1, 2, 3, 4])
        let history = try RunReport.readHistory(from: sweep.appendingPathComponent("trials/\(trial.id)/curves.csv"))
        #expect(Self.curve(events, "train/loss").map(\.1) == history.map { Float($0.trainLoss) })
        let names = try FileManager.default.contentsOfDirectory(atPath: sweep.appendingPathComponent("trials/\(trial.id)/tensorboard").path)
        #expect(names == [EventFile.fileName])
    }
}
