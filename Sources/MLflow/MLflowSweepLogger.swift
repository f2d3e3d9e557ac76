import AtomicFiles
import ContentHashing
import Foundation
import JSON5
import Reports
import Sweeps
import Training

/// Logs a sweep folder's finished trials to an MLflow tracking server: the sweep as a parent
/// run, each trial as a run nested in it.
///
/// A trial's run gets the flattened resolved configuration (`config.json`), `seed` and each swept
/// value under its manifest path (`windows.duration`, which the configuration holds as
/// `windows.size`) as parameters; per-epoch metrics `train_loss`, `train_accuracy`, `validation_loss`,
/// `validation_accuracy` (step = epoch, from `curves.csv`) and the scores of the saved weights
/// `final_<split>_accuracy`, `_macro_f1`, `_loss`, `_sequence_accuracy`, `_sequence_macro_f1`
/// (step = the saved epoch, from `complete.json`); tags `actionlab.trial`,
/// `actionlab.seed`, `actionlab.sweep`, `mlflow.parentRunId`, `mlflow.source.git.commit` (from `provenance.json`); and every file of
/// the trial folder as an artifact (reports, weights, TensorBoard events). Timestamps are the
/// trial's completion time. The parent run holds the sweep's base configuration as parameters
/// and `leaderboard.csv`, `summary.md`, `resolved.json`, `manifest.json5` and `sweep.json` as artifacts.
///
/// Idempotent: runs are found by their tags (`actionlab.sweep`, the folder's name, and
/// `actionlab.trial`). A trial already logged completely (tag `actionlab.logged` = `true`, set
/// last) is left alone; a run left incomplete by an interrupted call is deleted and logged afresh,
/// so a second call never adds a duplicate run or a duplicate metric value. The parent's artifacts
/// are uploaded again (replacing the old ones), so it follows the leaderboard as more trials finish.
///
/// A trial run also records the SHA-256 of the trial's `complete.json` (tag
/// `actionlab.complete_sha256`): another sweep folder of the same name (the same manifest run on
/// another machine, version or OpenBLAS kernel into `results/sweep`) has the same trial ids but
/// other results, and is refused before anything is logged, instead of being taken for the
/// sweep already there (its trials skipped as logged, its leaderboard put on the other's parent run).
public struct MLflowSweepLogger {
    /// What a call did.
    public struct Summary: Sendable, Equatable {
        public var experimentID: String
        public var parentRunID: String
        /// Trials logged by this call.
        public var logged: Int
        /// Trials already logged by an earlier call.
        public var alreadyLogged: Int
        /// Trials of the sweep that have not finished (not logged).
        public var unfinished: Int
    }

    public let client: MLflowClient
    private let log: (String) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - client: The tracking server.
    ///   - log: Receives one line per trial logged.
    public init(client: MLflowClient, log: @escaping (String) -> Void = { _ in }) {
        self.client = client
        self.log = log
    }

    /// Logs the finished trials of the sweep in `folder`.
    /// - Parameters:
    ///   - folder: A sweep folder (`actionlab run`'s output).
    ///   - experimentName: The MLflow experiment; default the sweep's manifest name. Created if missing.
    /// - Throws: `SweepError.notASweep` if `folder` is not a sweep folder, ``MLflowError`` if a
    ///   request fails or a trial file cannot be read.
    public func log(sweep folder: URL, experimentName: String? = nil) throws -> Summary {
        let record = try SweepRecord(folder: folder)
        let experimentID = try client.experimentID(named: experimentName ?? record.name)
        let sweepKey = folder.standardizedFileURL.lastPathComponent
        let sweepTags = [MLflowKeyValue(key: "actionlab.sweep", value: sweepKey)]
        // Every run of a sweep of this name, parent and trials, in one search.
        let runsOfSweep = try client.runs(inExperiment: experimentID, taggedWith: "actionlab.sweep", equalTo: sweepKey)
        var finished: [(trial: Trial, outcome: TrialOutcome, digest: String)] = []
        for trial in record.trials {
            guard let outcome = TrialRunner.outcome(of: trial, in: folder, verifyingTensors: false) else { continue }
            let marker = TrialRunner.folder(of: trial, in: folder).appendingPathComponent(TrialRunner.completionMarker)
            let digest = try ContentHash.sha256(of: try Self.read(marker)).hexDigest
            let logged = runsOfSweep.first { $0.tags["actionlab.trial"] == trial.id && $0.tags["actionlab.logged"] == "true" }
            if let logged, let recorded = logged.tags[Self.completeDigestTag], recorded != digest {
                throw MLflowError.conflictingSweep(
                    sweep: sweepKey, experimentID: experimentID, trial: trial.id, runID: logged.id, marker: marker.path)
            }
            finished.append((trial, outcome, digest))
        }

        let parent = try parentRun(runsOfSweep, experimentID: experimentID, name: "\(record.name) \(sweepKey)", tags: sweepTags)
        let base = try Self.json(folder.appendingPathComponent("resolved.json"))
        try client.logBatch(runID: parent.id, params: ConfigurationParameters(base).parameters)
        for name in ["leaderboard.csv", "summary.md", "resolved.json", "manifest.json5", SweepRecord.fileName] {
            let file = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            try client.uploadArtifact(try Self.read(file), path: name, to: parent)
        }

        var summary = Summary(
            experimentID: experimentID, parentRunID: parent.id, logged: 0, alreadyLogged: 0, unfinished: record.trials.count - finished.count)
        for (trial, outcome, digest) in finished {
            let existing = runsOfSweep.filter { $0.tags["actionlab.trial"] == trial.id }
            if existing.contains(where: { $0.tags["actionlab.logged"] == "true" }) {
                summary.alreadyLogged += 1
                continue
            }
            for incomplete in existing { try client.deleteRun(incomplete.id) }
            try logTrial(trial, outcome: outcome, folder: TrialRunner.folder(of: trial, in: folder), experimentID: experimentID,
                         parent: parent, sweepTags: sweepTags + [MLflowKeyValue(key: Self.completeDigestTag, value: digest)])
            summary.logged += 1
            log("trial \(trial.index) [\(trial.id)] seed \(trial.seed): logged")
        }
        if summary.unfinished == 0 {
            try client.finishRun(parent.id, succeeded: true, endTime: Self.milliseconds(Date()))
        }
        return summary
    }

    /// The tag of a trial run that holds the SHA-256 of its `complete.json`, in hexadecimal.
    static let completeDigestTag = "actionlab.complete_sha256"

    /// The sweep's parent run among `runsOfSweep`, created if there is none.
    private func parentRun(_ runsOfSweep: [MLflowRun], experimentID: String, name: String, tags: [MLflowKeyValue]) throws -> MLflowRun {
        if let run = runsOfSweep.first(where: { $0.tags["actionlab.kind"] == "sweep" }) { return run }
        return try client.createRun(
            inExperiment: experimentID, name: name, tags: tags + [MLflowKeyValue(key: "actionlab.kind", value: "sweep")],
            startTime: Self.milliseconds(Date()))
    }

    private func logTrial(
        _ trial: Trial, outcome: TrialOutcome, folder: URL, experimentID: String, parent: MLflowRun, sweepTags: [MLflowKeyValue]
    ) throws {
        let marker = folder.appendingPathComponent(TrialRunner.completionMarker)
        let finished = (try? FileManager.default.attributesOfItem(atPath: marker.path)[.modificationDate] as? Date) ?? Date()
        let time = Self.milliseconds(finished)
        var tags = sweepTags + [
            MLflowKeyValue(key: "actionlab.kind", value: "trial"),
            MLflowKeyValue(key: "actionlab.trial", value: trial.id),
            MLflowKeyValue(key: "actionlab.seed", value: "\(trial.seed)"),
            MLflowKeyValue(key: "mlflow.parentRunId", value: parent.id),
        ]
        if let provenance = try? Provenance.read(inFolder: folder) {
            tags.append(MLflowKeyValue(key: "mlflow.source.git.commit", value: provenance.gitCommit))
        }
        let run = try client.createRun(inExperiment: experimentID, name: "trial \(trial.index) \(trial.id) seed \(trial.seed)", tags: tags, startTime: time)

        let configuration = try Self.json(folder.appendingPathComponent("config.json"))
        let flattened = ConfigurationParameters(
            configuration.objectMembers?.first { $0.key == "configuration" }?.value ?? configuration)
        var params = flattened.parameters + [MLflowKeyValue(key: "seed", value: "\(trial.seed)")]
        // A swept path the resolved configuration holds in another form (`windows.duration`
        // resolves to `windows.size`) is a parameter of its own, under its manifest path.
        let keys = Set(params.map(\.key))
        for swept in trial.values where !keys.contains(swept.path) {
            params.append(MLflowKeyValue(key: swept.path, value: ConfigurationParameters.text(ofCanonicalJSON: swept.value)))
        }
        params = params.filter { $0.key.count <= 250 }  // MLflow's key limit; manifest paths are far shorter
        var metrics: [MLflowMetric] = []
        let history: [EpochRecord]
        do {
            history = try RunReport.readHistory(from: folder.appendingPathComponent("curves.csv"))
        } catch {
            throw MLflowError.unreadableFile(path: folder.appendingPathComponent("curves.csv").path, reason: "\(error)")
        }
        for record in history {
            let step = Int64(record.epoch)
            let values: [(String, Double?)] = [
                ("train_loss", record.trainLoss), ("train_accuracy", record.trainAccuracy),
                ("validation_loss", record.validationLoss), ("validation_accuracy", record.validationAccuracy),
            ]
            for case let (key, value?) in values where value.isFinite {
                metrics.append(MLflowMetric(key: key, value: value, timestamp: time, step: step))
            }
        }
        let savedStep = Int64(outcome.savedEpoch ?? outcome.epochs)
        for (split, scores) in outcome.splits.sorted(by: { $0.key < $1.key }) {
            let values: [(String, Double?)] = [
                ("accuracy", scores.accuracy), ("macro_f1", scores.macroF1), ("loss", scores.loss),
                ("sequence_accuracy", scores.sequenceAccuracy), ("sequence_macro_f1", scores.sequenceMacroF1),
            ]
            for case let (name, value?) in values where value.isFinite {
                metrics.append(MLflowMetric(key: "final_\(split)_\(name)", value: value, timestamp: time, step: savedStep))
            }
        }
        var extraTags: [MLflowKeyValue] = []
        if !flattened.truncated.isEmpty {
            extraTags.append(MLflowKeyValue(key: "actionlab.truncated_params", value: flattened.truncated.joined(separator: ", ")))
        }
        try client.logBatch(runID: run.id, metrics: metrics, params: params, tags: extraTags)
        for file in try Self.files(in: folder) {
            try client.uploadArtifact(try Self.read(folder.appendingPathComponent(file)), path: file, to: run)
        }
        // Last: the run is complete only once this tag is there.
        try client.logBatch(runID: run.id, tags: [MLflowKeyValue(key: "actionlab.logged", value: "true")])
        try client.finishRun(run.id, succeeded: outcome.diverged == nil, endTime: time)
    }

    /// The regular files below `folder`, as sorted relative paths.
    static func files(in folder: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw MLflowError.unreadableFile(path: folder.path, reason: "cannot list the folder")
        }
        let root = folder.standardizedFileURL.path + "/"
        var files: [String] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(root) else { continue }
            files.append(String(path.dropFirst(root.count)))
        }
        return files.sorted()
    }

    static func read(_ url: URL) throws(MLflowError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(path: url.path, reason: FileErrorReason.of(error))
        }
    }

    static func json(_ url: URL) throws -> JSON5Value {
        let data = try read(url)
        do {
            return try JSON5Value(parsing: data, filePath: url.path)
        } catch {
            throw MLflowError.unreadableFile(path: url.path, reason: "\(error)")
        }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
