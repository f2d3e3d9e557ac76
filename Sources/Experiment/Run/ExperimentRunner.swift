import AtomicFiles
import FeatureCache
import Foundation
import NeuralNetwork
import Pose

/// Runs an experiment end to end: data through the feature cache, windows, one training per
/// seed, evaluation of every split, and the report folder.
///
/// The report is built in a sibling folder named `<output>.partial-<pid>` and renamed to its
/// final name only when every run has finished, so an output folder that exists is complete;
/// on an error the partial folder is removed. Data problems are found before that folder is
/// created.
public struct ExperimentRunner {
    /// The resolved manifest.
    public var configuration: ExperimentConfiguration
    /// The manifest file, copied into the report as given.
    public var manifestURL: URL
    /// Receives progress lines.
    public var log: (String) -> Void

    public init(configuration: ExperimentConfiguration, manifestURL: URL, log: @escaping (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.manifestURL = manifestURL
        self.log = log
    }

    /// The default report folder: `<output.directory>/<name>/<UTC timestamp>`.
    public func defaultOutputDirectory(now: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = configuration.output.directory.appendingPathComponent(configuration.name)
        var candidate = base.appendingPathComponent(formatter.string(from: now))
        var suffix = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = base.appendingPathComponent("\(formatter.string(from: now))-\(suffix)")
            suffix += 1
        }
        return candidate
    }

    /// Runs every seed and writes the report.
    /// - Parameter output: The report folder; it must not exist or be empty. Default:
    ///   ``defaultOutputDirectory(now:)``.
    /// - Returns: The report folder.
    /// - Throws: `ExperimentError` for data that does not fit the configuration or an output
    ///   folder that is in the way, `AtomicFileError` if a report file cannot be written, and
    ///   the importers' and the cache's errors (inside `ExperimentError.sourcesFailed`).
    public func run(output: URL? = nil) throws -> URL {
        let destination = output ?? defaultOutputDirectory()
        try checkDestination(destination)
        BLAS.threadCount = configuration.training.threads

        let cache = try FeatureCache(directory: configuration.features.cache)
        let dataset = try DatasetLoader(configuration: configuration, cache: cache, log: log).load()
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
        guard let train = windows["train"] else {
            throw ExperimentError.emptySplit("train", reason: "no training sequences")
        }
        log("classes: \(dataset.labels.joined(separator: ", "))")
        for split in RunReport.splitOrder {
            if let set = windows[split] { log("\(split): \(set.sequenceIDs.count) sequences, \(set.count) windows of \(builder.windowSize) frames") }
        }

        removeAbandonedPartialFolders(in: destination.deletingLastPathComponent())
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent("\(destination.lastPathComponent).partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            try writeExperimentFiles(into: partial)
            var runs: [SummaryReport.Run] = []
            for seed in configuration.training.seeds {
                let folder = "seed-\(seed)"
                let report = try runSeed(seed, windows: windows, train: train, dataset: dataset,
                                         into: partial.appendingPathComponent(folder))
                runs.append(SummaryReport.Run(seed: seed, folder: folder, report: report))
            }
            let summary = SummaryReport(
                name: configuration.name, settings: summarySettings(),
                splitSizes: windows.mapValues { SummaryReport.SplitSize(sequences: $0.sequenceIDs.count, windows: $0.count) },
                runs: runs)
            try AtomicFile.write(summary.markdown, to: partial.appendingPathComponent("summary.md"))
            try moveIntoPlace(partial, destination)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return destination
    }

    /// Trains and evaluates one seed and writes its folder.
    private func runSeed(
        _ seed: Int, windows: [String: WindowSet], train: WindowSet, dataset: LoadedDataset, into folder: URL
    ) throws -> RunReport {
        log("seed \(seed): training \(configuration.training.epochs) epochs")
        let epochs = configuration.training.epochs
        let result = try Trainer(configuration: configuration).fit(
            train: train, validation: windows["validation"], seed: seed
        ) { record in
            guard record.epoch == 1 || record.epoch % 10 == 0 || record.epoch == epochs else { return }
            var line = "seed \(seed) epoch \(record.epoch)/\(epochs): train loss \(NumberFormat.fixed(record.trainLoss)) "
                + "accuracy \(NumberFormat.fixed(record.trainAccuracy))"
            if let loss = record.validationLoss, let accuracy = record.validationAccuracy {
                line += ", validation loss \(NumberFormat.fixed(loss)) accuracy \(NumberFormat.fixed(accuracy))"
            }
            log(line)
        }
        let evaluator = Evaluator(batchSize: configuration.training.batchSize, aggregation: configuration.evaluation.aggregation)
        var metrics: [String: SplitMetrics] = [:]
        for (split, set) in windows { metrics[split] = evaluator.evaluate(result.model, on: set) }
        let report = RunReport(seed: seed, history: result.history, metrics: metrics)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try AtomicFile.writeJSON(RunConfiguration(seed: seed, configuration: configuration), to: folder.appendingPathComponent("config.json"))
        try AtomicFile.writeJSON(Provenance.current(seed: seed, data: dataset.records), to: folder.appendingPathComponent("provenance.json"))
        try report.write(to: folder)
        try Checkpoint(model: result.model.stateDictionary(), metadata: weightsMetadata(seed: seed, labels: dataset.labels))
            .write(to: folder.appendingPathComponent("weights.h5"))
        if let test = metrics["test"] {
            log("seed \(seed): test accuracy \(NumberFormat.fixed(test.window.accuracy)) (windows), "
                + "\(NumberFormat.fixed(test.sequence.accuracy)) (sequences)")
        }
        return report
    }

    /// `manifest.json5` (the bytes as given) and `resolved.json` (every default filled in).
    private func writeExperimentFiles(into folder: URL) throws {
        let manifest: Data
        do {
            manifest = try Data(contentsOf: manifestURL)
        } catch {
            throw ExperimentError.writeFailed(path: manifestURL.path, reason: "cannot re-read the manifest: \(error.localizedDescription)")
        }
        try AtomicFile.write(manifest, to: folder.appendingPathComponent("manifest.json5"))
        try AtomicFile.write(configuration.resolvedJSON(), to: folder.appendingPathComponent("resolved.json"))
    }

    /// Root attributes of `weights.h5`: what an app needs to feed the model.
    private func weightsMetadata(seed: Int, labels: [String]) -> [String: String] {
        let layout = configuration.features.layout
        func json(_ values: [String]) -> String {
            (try? String(decoding: JSONEncoder().encode(values), as: UTF8.self)) ?? ""
        }
        return [
            "model": configuration.model.kind.rawValue, "labels": json(labels),
            "window_size": "\(configuration.windows.size)", "frame_rate": "\(configuration.windows.frameRate)",
            "layout": layout.name, "joints": json(layout.joints), "channels": json(layout.channels),
            "input_shape": "[\(configuration.windows.size), \(layout.channelCount), \(layout.jointCount)]",
            "seed": "\(seed)", "actionlab_version": Provenance.actionlabVersion,
        ]
    }

    private func summarySettings() -> [(String, String)] {
        let w = configuration.windows
        let t = configuration.training
        let m = configuration.model
        return [
            ("layout", "\(configuration.features.layout.name) (\(configuration.features.layout.channelCount) channels × \(configuration.features.layout.jointCount) joints)"),
            ("window", "\(w.size) frames = \(NumberFormat.fixed(w.actionDuration, digits: 3)) s at \(w.frameRate) fps, stride \(w.stride), padding \(w.padding.rawValue)"),
            ("augmentation", configuration.augmentation.pipeline
                + (configuration.augmentation.steps.isEmpty ? "" : " (\(configuration.augmentation.steps.map(\.kind).joined(separator: ", ")))")),
            ("model", "\(m.kind.rawValue), channels \(m.channels), kernel sizes \(m.kernelSizes), dropout \(m.dropout)"),
            ("training", "\(t.epochs) epochs, batch \(t.batchSize), \(t.optimizer.rawValue) lr \(t.learningRate), weight decay \(t.weightDecay)"),
            ("validation", configuration.dataset.validation.strategy.rawValue),
            ("sequence aggregation", configuration.evaluation.aggregation.rawValue),
            ("seeds", t.seeds.map(String.init).joined(separator: ", ")),
        ]
    }

    /// Removes `*.partial-<pid>` folders left in `folder` by runs that were killed: those whose
    /// process no longer exists (`kill(pid, 0)` fails with `ESRCH`). Folders of live runs stay.
    private func removeAbandonedPartialFolders(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            guard let marker = name.range(of: ".partial-", options: .backwards),
                  let pid = pid_t(name[marker.upperBound...]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                log("removing \(name), left by a run that was killed")
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    private func checkDestination(_ destination: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else { return }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? []
        guard isDirectory.boolValue, contents.isEmpty else {
            throw ExperimentError.writeFailed(path: destination.path, reason: "the output folder exists and is not empty; choose another --output")
        }
    }

    private func moveIntoPlace(_ partial: URL, _ destination: URL) throws {
        rmdir(destination.path)  // an empty folder the caller made for us; rmdir never removes content
        guard rename(partial.path, destination.path) == 0 else {
            throw ExperimentError.writeFailed(path: destination.path, reason: String(cString: strerror(errno)))
        }
    }
}

/// `config.json` of one run: the resolved configuration and the run's seed.
struct RunConfiguration: Encodable {
    var seed: Int
    var configuration: ExperimentConfiguration
}
