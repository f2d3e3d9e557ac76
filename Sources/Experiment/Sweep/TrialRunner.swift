import AtomicFiles
import FeatureCache
import Foundation
import NeuralNetwork
import Pose

/// Runs one trial of a sweep and puts its folder in place, exactly once.
///
/// The trial is written into `trials/<id>.partial-<pid>/`; `complete.json` is written last,
/// then the folder is renamed to `trials/<id>`. `rename(2)` onto an existing non-empty folder
/// fails, so when two workers finish the same trial the second discards its copy: every trial
/// completes exactly once, whatever runs in parallel or is killed.
public struct TrialRunner {
    /// Receives progress lines.
    public var log: (String) -> Void

    public init(log: @escaping (String) -> Void = { _ in }) {
        self.log = log
    }

    /// Name of the completion marker inside a trial folder.
    public static let completionMarker = "complete.json"

    /// The folder of `trial` inside `sweepFolder`.
    public static func folder(of trial: Trial, in sweepFolder: URL) -> URL {
        sweepFolder.appendingPathComponent("trials").appendingPathComponent(trial.id)
    }

    /// The outcome of a finished trial, or nil if it has not finished.
    public static func outcome(of trial: Trial, in sweepFolder: URL) -> TrialOutcome? {
        let marker = folder(of: trial, in: sweepFolder).appendingPathComponent(completionMarker)
        guard let data = try? Data(contentsOf: marker) else { return nil }
        return try? JSONDecoder().decode(TrialOutcome.self, from: data)
    }

    /// Trains, evaluates and writes `trial` unless it has already finished.
    /// - Parameters:
    ///   - trial: The trial.
    ///   - sweepFolder: The sweep's folder.
    ///   - dataset: The trial's data, if the caller has loaded it (sweeps share loads between
    ///     trials with the same dataset settings); loaded through the feature cache otherwise.
    /// - Returns: The outcome, from this run or the earlier one.
    /// - Throws: What loading, training and writing throw; the partial folder is removed.
    @discardableResult
    public func run(_ trial: Trial, in sweepFolder: URL, dataset: LoadedDataset? = nil) throws -> TrialOutcome {
        if let done = Self.outcome(of: trial, in: sweepFolder) { return done }
        let started = Date()
        let configuration = trial.configuration
        BLAS.threadCount = configuration.training.threads
        let data = try dataset ?? DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let windows = try Self.windows(of: data, configuration: configuration)
        guard let train = windows["train"] else { throw ExperimentError.emptySplit("train", reason: "no training sequences") }

        let prefix = "trial \(trial.index) [\(trial.id)] seed \(trial.seed)"
        log("\(prefix): \(trial.label): training \(configuration.training.epochs) epochs on \(train.count) windows")
        let epochs = configuration.training.epochs
        let trainingStarted = Date()
        let result = try Trainer(configuration: configuration).fit(train: train, validation: windows["validation"], seed: trial.seed) { record in
            guard record.epoch == 1 || record.epoch % 10 == 0 || record.epoch == epochs else { return }
            var line = "\(prefix) epoch \(record.epoch)/\(epochs): train loss \(NumberFormat.fixed(record.trainLoss)) "
                + "accuracy \(NumberFormat.fixed(record.trainAccuracy))"
            if let loss = record.validationLoss, let accuracy = record.validationAccuracy {
                line += ", validation loss \(NumberFormat.fixed(loss)) accuracy \(NumberFormat.fixed(accuracy))"
            }
            log(line)
        }
        let trainingSeconds = Date().timeIntervalSince(trainingStarted)
        let evaluator = Evaluator(batchSize: configuration.training.batchSize, aggregation: configuration.evaluation.aggregation)
        var metrics: [String: SplitMetrics] = [:]
        for (split, set) in windows { metrics[split] = try evaluator.evaluate(result.model, on: set) }
        let report = RunReport(seed: trial.seed, history: result.history, metrics: metrics)
        let outcome = TrialOutcome(trial: trial, report: report)

        let destination = Self.folder(of: trial, in: sweepFolder)
        let partial = destination.deletingLastPathComponent().appendingPathComponent("\(trial.id).partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            try AtomicFile.writeJSON(TrialConfigurationFile(seed: trial.seed, trial: trial.id, configuration: configuration),
                                     to: partial.appendingPathComponent("config.json"))
            try AtomicFile.writeJSON(Provenance.current(seed: trial.seed, data: data.records), to: partial.appendingPathComponent("provenance.json"))
            try report.write(to: partial)
            try Checkpoint(model: result.model.stateDictionary(), metadata: Self.weightsMetadata(trial: trial, labels: data.labels))
                .write(to: partial.appendingPathComponent("weights.h5"))
            try AtomicFile.writeJSON(TrialTiming(trainingSeconds: trainingSeconds, totalSeconds: Date().timeIntervalSince(started)),
                                     to: partial.appendingPathComponent("timing.json"))
            try AtomicFile.writeJSON(outcome, to: partial.appendingPathComponent(Self.completionMarker))
            try? AtomicFile.sync(path: partial.path, directory: true)
            if rename(partial.path, destination.path) != 0 {
                let reason = String(cString: strerror(errno))
                guard let done = Self.outcome(of: trial, in: sweepFolder) else {
                    throw ExperimentError.writeFailed(path: destination.path, reason: reason)
                }
                try? FileManager.default.removeItem(at: partial)
                log("\(prefix): already completed by another worker; keeping that result")
                return done
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        if let test = metrics["test"] {
            log("\(prefix): test accuracy \(NumberFormat.fixed(test.window.accuracy)) (windows), "
                + "\(NumberFormat.fixed(test.sequence.accuracy)) (sequences)")
        }
        return outcome
    }

    /// Windows of every split that has data.
    static func windows(of dataset: LoadedDataset, configuration: ExperimentConfiguration) throws -> [String: WindowSet] {
        let builder = WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding,
            treatsZeroJointsAsUndetected: configuration.features.layout.marksUndetectedJointsWithZeros)
        var windows: [String: WindowSet] = [:]
        for split in RunReport.splitOrder {
            let sequences = dataset.sequences(of: split)
            guard !sequences.isEmpty else { continue }
            windows[split] = try builder.windows(of: sequences, labels: dataset.labels)
        }
        return windows
    }

    /// Root attributes of `weights.h5`: what an app needs to feed the model.
    static func weightsMetadata(trial: Trial, labels: [String]) -> [String: String] {
        let configuration = trial.configuration
        let layout = configuration.features.layout
        func json(_ values: [String]) -> String {
            (try? String(decoding: JSONEncoder().encode(values), as: UTF8.self)) ?? ""
        }
        return [
            "model": configuration.model.kind.rawValue, "labels": json(labels),
            "window_size": "\(configuration.windows.size)", "frame_rate": "\(configuration.windows.frameRate)",
            "layout": layout.name, "joints": json(layout.joints), "channels": json(layout.channels),
            "input_shape": "[\(configuration.windows.size), \(layout.channelCount), \(layout.jointCount)]",
            "seed": "\(trial.seed)", "trial": trial.id, "actionlab_version": Provenance.actionlabVersion,
        ]
    }
}

/// `config.json` of one trial: its id, seed and resolved configuration.
struct TrialConfigurationFile: Encodable {
    var seed: Int
    var trial: String
    var configuration: ExperimentConfiguration
}
