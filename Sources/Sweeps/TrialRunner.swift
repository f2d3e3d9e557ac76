import AtomicFiles
import Dataset
import FeatureCache
import Foundation
import JSON5
import Manifest
import NeuralNetwork
import Reports
import Training

/// Runs one trial of a sweep and puts its folder in place, exactly once.
///
/// The trial is written into `trials/<id>.partial-<pid>/`: during training its checkpoint
/// `checkpoint.h5` every `training.checkpointEvery` epochs, then the reports; `complete.json` is
/// written last, the checkpoint removed, and the folder renamed to `trials/<id>`. A partial
/// folder left by a killed process is adopted (renamed to this process's partial folder) and
/// training resumes from its checkpoint: the folder name is the content-addressed trial id, so
/// the checkpoint belongs to the same configuration and seed, and the result is bit-identical
/// to an uninterrupted run; temporary files that the killed writer left in it are removed, so a
/// finished trial folder never holds one.
///
/// A trial is claimed (``TrialClaim``, a lock the kernel releases when its holder ends) before
/// it trains, so however many `actionlab run` or `actionlab trial` processes work on one folder,
/// each trial trains once. `rename(2)` onto an existing non-empty folder fails, so even without
/// the claim (a process of an older version) a second copy of a trial is discarded: every trial
/// completes exactly once, whatever runs in parallel or is killed.
public struct TrialRunner {
    /// Receives progress lines: an epoch's line after epochs 1, every tenth and the last, and
    /// whenever 30 s passed since the trial's last line; within an epoch, a line a minute.
    public var log: (String) -> Void
    /// Receives every step of every trial this runner trains, for progress displays.
    public var progress: (TrialProgress) -> Void

    /// Seconds without a line after which an epoch, or a batch within one, gets a line of its own.
    static let quietEpochSeconds = 30.0
    static let quietBatchSeconds = 60.0

    public init(log: @escaping (String) -> Void = { _ in }, progress: @escaping (TrialProgress) -> Void = { _ in }) {
        self.log = log
        self.progress = progress
    }

    /// Name of the completion marker inside a trial folder.
    public static let completionMarker = TrialFolderCheck.markerName
    /// Name of the training checkpoint inside a partial trial folder.
    public static let checkpointName = "checkpoint.h5"

    /// The folder of `trial` inside `sweepFolder`.
    public static func folder(of trial: Trial, in sweepFolder: URL) -> URL {
        sweepFolder.appendingPathComponent("trials").appendingPathComponent(trial.id)
    }

    /// The outcome of a finished trial, or nil if it has not finished, or its folder was damaged
    /// afterwards (``damage(of:in:)``, ``TrialFolderCheck``).
    /// - Parameter verifyingTensors: Whether every tensor of `weights.h5` is read and checked
    ///   (``TrialFolderCheck/init(folder:name:verifyingTensors:)``): so `run` and `status` judge,
    ///   so that a changed byte is found and the trial trained again; readers that load the chosen
    ///   weights anyway (the leaderboard, `export`, MLflow) pass false.
    public static func outcome(of trial: Trial, in sweepFolder: URL, verifyingTensors: Bool = true) -> TrialOutcome? {
        guard let check = TrialFolderCheck(
            folder: folder(of: trial, in: sweepFolder), name: "trials/\(trial.id)", verifyingTensors: verifyingTensors),
              check.isWhole else { return nil }
        return check.outcome
    }

    /// Trains, evaluates and writes `trial` unless it has already finished; when another
    /// process is training it, waits for that process and keeps its result (or trains the trial
    /// if that process ended without finishing it).
    /// - Parameters:
    ///   - trial: The trial.
    ///   - sweepFolder: The sweep's folder.
    ///   - dataset: The trial's data, if the caller has loaded it (sweeps share loads between
    ///     trials with the same dataset settings); loaded through the feature cache otherwise.
    /// - Returns: The outcome, from this run or another.
    /// - Throws: What claiming, loading, training and writing throw; the partial folder is removed.
    @discardableResult
    public func run(_ trial: Trial, in sweepFolder: URL, dataset: LoadedDataset? = nil) throws -> TrialOutcome {
        if let done = Self.outcome(of: trial, in: sweepFolder) { return done }
        if let claim = try TrialClaim.claimIfFree(trial, in: sweepFolder) {
            return try run(trial, in: sweepFolder, dataset: dataset, claimedBy: claim)
        }
        log("\(Self.name(of: trial)): another process is training it; waiting for it")
        return try run(trial, in: sweepFolder, dataset: dataset, claimedBy: TrialClaim.claim(trial, in: sweepFolder))
    }

    /// Runs every unfinished trial of `trials` that no other process is training, then waits
    /// for those that others were training and runs any they left unfinished (their process
    /// ended): each trial trains once however many processes run this on one sweep folder.
    /// - Parameters:
    ///   - trials: The trials, in the order to try them.
    ///   - sweepFolder: The sweep's folder.
    ///   - dataset: The data of a trial (called only for a trial this process trains); nil to
    ///     load it through the feature cache.
    /// - Returns: One message per trial that failed, naming it and the error; the others ran.
    public func runEach(_ trials: [Trial], in sweepFolder: URL, dataset: (Trial) throws -> LoadedDataset?) -> [String] {
        var failures: [String] = []
        var heldElsewhere: [Trial] = []
        func attempt(_ trial: Trial, _ claim: () throws -> TrialClaim?) {
            do {
                guard let claim = try claim() else {
                    log("\(Self.name(of: trial)): another process is training it; moving on to the next")
                    heldElsewhere.append(trial)
                    return
                }
                if Self.outcome(of: trial, in: sweepFolder) != nil {
                    log("\(Self.name(of: trial)): finished by another process; keeping that result")
                    return
                }
                _ = try run(trial, in: sweepFolder, dataset: try dataset(trial), claimedBy: claim)
            } catch {
                progress(.finished(trial: trial.index, succeeded: false))
                failures.append("trial \(trial.index) [\(trial.id)] \(trial.label) seed \(trial.seed): \(error)")
            }
        }
        for trial in trials {
            if Self.outcome(of: trial, in: sweepFolder) != nil {
                log("\(Self.name(of: trial)) has already finished; keeping it")
                continue
            }
            attempt(trial) { try TrialClaim.claimIfFree(trial, in: sweepFolder) }
        }
        for trial in heldElsewhere {
            log("\(Self.name(of: trial)): waiting for the process that is training it")
            attempt(trial) { try TrialClaim.claim(trial, in: sweepFolder) }
        }
        return failures
    }

    /// ``run(_:in:dataset:)`` once this process holds `claim`.
    private func run(_ trial: Trial, in sweepFolder: URL, dataset: LoadedDataset?, claimedBy claim: TrialClaim) throws -> TrialOutcome {
        defer { claim.release() }
        // Another process may have finished it between the caller's look and the claim.
        if let done = Self.outcome(of: trial, in: sweepFolder) { return done }
        if let moved = try Self.setAsideDamagedFolder(of: trial, in: sweepFolder) {
            log("\(Self.name(of: trial)): \(moved.reason); moved its folder to \(moved.to), and training it again")
        }
        // The manifest's `training.threads` for this trial only: trials run in-process (tests,
        // `--jobs 1`) must not change one another's thread count.
        return try ComputeThreads.withCount(trial.configuration.training.threads) {
            try train(trial, in: sweepFolder, dataset: dataset)
        }
    }

    /// `trial 3 [0123456789ab]`, how progress lines name a trial.
    static func name(of trial: Trial) -> String { "trial \(trial.index) [\(trial.id)]" }

    /// ``run(_:in:dataset:)`` for a trial that has not finished and that this process has
    /// claimed, with its thread count set.
    private func train(_ trial: Trial, in sweepFolder: URL, dataset: LoadedDataset?) throws -> TrialOutcome {
        let started = Date()
        let configuration = trial.configuration
        let data = try dataset ?? DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let windows = try Self.windows(of: data, configuration: configuration)
        guard let train = windows["train"] else { throw DatasetError.emptySplit("train", reason: "no training sequences") }

        let prefix = "trial \(trial.index) [\(trial.id)] seed \(trial.seed)"
        let destination = Self.folder(of: trial, in: sweepFolder)
        let partial = destination.deletingLastPathComponent().appendingPathComponent("\(trial.id).partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        if let adopted = Self.adoptAbandonedPartialFolder(of: trial, as: partial) {
            log("\(prefix): resuming from the checkpoint in \(adopted), left by a run that was killed")
            // The trial is claimed: no other process writes into its partial folders.
            let stale = AtomicFile.removeStaleTemporaryFiles(in: partial, includingLiveWriters: true)
            if !stale.isEmpty {
                log("\(prefix): removed \(stale.count) temporary file\(stale.count == 1 ? "" : "s") left half-written "
                    + "in it: \(stale.joined(separator: ", "))")
            }
        }
        let epochs = configuration.training.epochs
        let result: Trainer.Result
        var epochTimes: [Int: Double] = [:]
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            log("\(prefix): \(trial.label): training \(epochs) epoch\(epochs == 1 ? "" : "s") on \(train.count) window\(train.count == 1 ? "" : "s")")
            progress(.started(trial: trial.index, id: trial.id, seed: trial.seed, label: trial.label, epochs: epochs))
            var lastLine = Date()
            result = try Trainer(configuration: configuration).fit(
                train: train, validation: windows["validation"], seed: trial.seed,
                checkpoint: partial.appendingPathComponent(Self.checkpointName),
                onEpoch: { record in
                    let now = Date()
                    epochTimes[record.epoch] = now.timeIntervalSince1970
                    progress(.epoch(trial: trial.index, epoch: record.epoch, epochs: epochs, trainAccuracy: record.trainAccuracy,
                                    validationAccuracy: record.validationAccuracy))
                    let quiet = now.timeIntervalSince(lastLine) >= Self.quietEpochSeconds
                    guard record.epoch == 1 || record.epoch % 10 == 0 || record.epoch == epochs || quiet else { return }
                    var line = "\(prefix) epoch \(record.epoch)/\(epochs): train loss \(NumberFormat.fixed(record.trainLoss)) "
                        + "accuracy \(NumberFormat.fixed(record.trainAccuracy))"
                    if let loss = record.validationLoss, let accuracy = record.validationAccuracy {
                        line += ", validation loss \(NumberFormat.fixed(loss)) accuracy \(NumberFormat.fixed(accuracy))"
                    }
                    log(line)
                    lastLine = now
                },
                onBatch: { epoch, done, batches in
                    progress(.batch(trial: trial.index, epoch: epoch, done: done, batches: batches))
                    guard done < batches, Date().timeIntervalSince(lastLine) >= Self.quietBatchSeconds else { return }
                    log("\(prefix) epoch \(epoch)/\(epochs): batch \(done) of \(batches)")
                    lastLine = Date()
                })
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        // A summary once training is done (the resumption itself was announced when the partial
        // folder was adopted): which epochs this run trained.
        if let resumed = result.resumedFromEpoch, let last = result.history.last?.epoch {
            log("\(prefix): resumed after epoch \(resumed) of the killed run"
                + (last > resumed ? "; trained epochs \(resumed + 1) to \(last) in this one" : "; no epoch was left to train"))
        }
        if result.stoppedEarly { log("\(prefix): stopped early after epoch \(result.history.count)") }
        // Both include the training done before a checkpoint this run resumed from.
        let trainingSeconds = result.trainingSeconds
        let priorSeconds = result.trainingSecondsBeforeResuming
        let evaluator = Evaluator(batchSize: configuration.training.batchSize, aggregation: configuration.evaluation.aggregation)
        var metrics: [String: SplitMetrics] = [:]
        var scores: [(split: String, scores: WindowScores)] = []
        if let divergence = result.divergence {
            log("\(prefix): diverged, \(divergence); not scored (lower training.learningRate, or clip with training.gradientClipNorm)")
        } else {
            for (split, set) in windows {
                let (probabilities, loss) = try evaluator.predict(result.model, on: set)
                let splitScores = WindowScores(windows: set, probabilities: probabilities)
                metrics[split] = evaluator.metrics(of: splitScores, loss: loss)
                // Training windows are many and fuse into nothing a report shows.
                if split != "train" { scores.append((split, splitScores)) }
            }
        }
        let report = RunReport(seed: trial.seed, history: result.history, metrics: metrics, savedEpoch: result.savedEpoch)
        let outcome = TrialOutcome(trial: trial, report: report, diverged: result.divergence)

        do {
            // The partial folder is private until renamed: its files are flushed together (one
            // syncfs) rather than one by one, before the timing and the completion marker.
            try AtomicFile.withDeferredSync(flushing: partial) {
                try AtomicFile.writeJSON(TrialConfigurationFile(seed: trial.seed, trial: trial.id, configuration: configuration),
                                         to: partial.appendingPathComponent("config.json"))
                try AtomicFile.writeJSON(Provenance.current(
                seed: trial.seed, data: data.records, skipped: data.skipped, splitMethods: data.splitMethods),
                                         to: partial.appendingPathComponent(Provenance.fileName))
                try report.write(to: partial)
                if !scores.isEmpty {
                    // Every scored split's window probabilities, for stream ensembles (StreamEnsemble).
                    let folder = partial.appendingPathComponent(WindowScores.folderName, isDirectory: true)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    for (split, splitScores) in scores {
                        try AtomicFile.write(splitScores.csvTable.csv, to: folder.appendingPathComponent("\(split).csv"))
                    }
                }
                try TensorBoardLog.trialFile(
                    trial: trial, report: report, diverged: result.divergence != nil, startTime: started.timeIntervalSince1970,
                    epochTimes: epochTimes, endTime: Date().timeIntervalSince1970
                ).write(toFolder: partial.appendingPathComponent(TensorBoardLog.folderName))
                try AtomicFile.write(
                    TrialPage(trial: trial, configuration: configuration, report: report, diverged: result.divergence).html,
                    to: partial.appendingPathComponent(SweepPage.fileName))
                // A diverged model's weights are not finite: nothing to save or export.
                guard result.divergence == nil else { return }
                let metadata = Self.weightsMetadata(trial: trial, labels: data.labels, savedEpoch: result.savedEpoch)
                try Checkpoint(model: result.model.stateDictionary(), metadata: metadata)
                    .write(to: partial.appendingPathComponent("weights.h5"))
            }
            try AtomicFile.writeJSON(TrialTiming(trainingSeconds: trainingSeconds, totalSeconds: priorSeconds + Date().timeIntervalSince(started)),
                                     to: partial.appendingPathComponent("timing.json"))
            try AtomicFile.writeJSON(outcome, to: partial.appendingPathComponent(Self.completionMarker))
            try? FileManager.default.removeItem(at: partial.appendingPathComponent(Self.checkpointName))
            // A trial folder that exists is complete: no temporary file goes into place with it.
            AtomicFile.removeStaleTemporaryFiles(in: partial, includingLiveWriters: true)
            try? AtomicFile.sync(path: partial.path, directory: true)
            if rename(partial.path, destination.path) != 0 {
                let reason = String(cString: strerror(errno))
                guard let done = Self.outcome(of: trial, in: sweepFolder) else {
                    throw ReportError.writeFailed(path: destination.path, reason: reason)
                }
                try? FileManager.default.removeItem(at: partial)
                log("\(prefix): already completed by another worker; keeping that result")
                progress(.finished(trial: trial.index, succeeded: true))
                return done
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        progress(.finished(trial: trial.index, succeeded: true))
        if let test = metrics["test"] {
            log("\(prefix): test accuracy \(NumberFormat.fixed(test.window.accuracy)) (windows), "
                + "\(NumberFormat.fixed(test.sequence.accuracy)) (sequences)")
        }
        return outcome
    }

    /// The folder of a sweep that holds the trial folders found damaged, set aside by
    /// ``setAsideDamagedFolder(of:in:)``: outside `trials/`, so no reader takes them for trials.
    public static let damagedFoldersName = "damaged-trials"

    /// What is wrong with the folder of `trial` when it exists but has no readable completion
    /// marker, lacks a file of a finished trial, holds one of its JSON files unreadable or its
    /// weights do not open (see ``setAsideDamagedFolder(of:in:)``): `trials/<id>/complete.json`
    /// missing, its parse error with file and line (or `config.json`'s, `metrics.json`'s,
    /// `provenance.json`'s), `trials/<id>/metrics.json is missing`, or `trials/<id>/weights.h5
    /// cannot be read: truncated file: …`; nil when there is no folder or it is whole.
    public static func damage(of trial: Trial, in sweepFolder: URL) -> String? {
        TrialFolderCheck(folder: folder(of: trial, in: sweepFolder), name: "trials/\(trial.id)", verifyingTensors: true)?.damage
    }

    /// Moves the folder of `trial` out of `trials/` when it exists but has no readable
    /// completion marker, lacks a finished trial's file or holds weights that do not open, into ``damagedFoldersName``/`<id>-<UUID>`.
    ///
    /// A trial folder appears whole, by `rename(2)`, with its marker written last, so such a folder
    /// was damaged after the fact (a marker deleted, truncated or edited). Left in place, it would
    /// make the trial look unfinished to every run, and the finished trial's `rename(2)` onto it
    /// would fail ("Directory not empty") on every resume. The caller must hold the trial's claim.
    ///
    /// - Returns: Why the folder was moved and where (relative to `sweepFolder`), or nil when
    ///   there was no folder.
    /// - Throws: ``ReportError/writeFailed(path:reason:)`` if the folder cannot be moved.
    static func setAsideDamagedFolder(of trial: Trial, in sweepFolder: URL) throws -> (reason: String, to: String)? {
        guard let reason = damage(of: trial, in: sweepFolder) else { return nil }
        let folder = folder(of: trial, in: sweepFolder)
        let damaged = sweepFolder.appendingPathComponent(damagedFoldersName)
        let name = "\(trial.id)-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        } catch {
            throw ReportError.writeFailed(path: damaged.path, reason: FileErrorReason.of(error))
        }
        guard rename(folder.path, damaged.appendingPathComponent(name).path) == 0 else {
            throw ReportError.writeFailed(
                path: folder.path, reason: "\(reason), and it cannot be moved aside: \(String(cString: strerror(errno)))")
        }
        return (reason, "\(damagedFoldersName)/\(name)")
    }

    /// A `trials/<id>.partial-<pid>` folder, where process `pid` writes trial `<id>` until the
    /// trial is complete and the folder is renamed to `trials/<id>`.
    struct PartialFolder {
        /// The folder.
        var url: URL
        /// The trial's id.
        var trialID: String
        /// The process that writes (or wrote) it.
        var pid: pid_t
        /// Its name, `<id>.partial-<pid>`.
        var name: String { url.lastPathComponent }
        /// Whether it holds a training checkpoint, from which the trial can resume.
        var hasCheckpoint: Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(checkpointName).path) }
    }

    /// The partial folders in a sweep's `trials` folder, of every trial or of `trialID` only,
    /// in name order.
    static func partialFolders(in trialsFolder: URL, of trialID: String? = nil) -> [PartialFolder] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: trialsFolder.path)) ?? []).sorted()
        return names.compactMap { name in
            guard let marker = name.range(of: ".partial-", options: .backwards),
                  let pid = pid_t(name[marker.upperBound...]), pid > 0 else { return nil }
            let id = String(name[..<marker.lowerBound])
            guard trialID == nil || id == trialID else { return nil }
            return PartialFolder(url: trialsFolder.appendingPathComponent(name), trialID: id, pid: pid)
        }
    }

    /// Renames a partial folder of `trial` left by a dead process, holding a checkpoint, to `partial`.
    ///
    /// `rename(2)` is atomic, so when several workers look at once exactly one adopts the folder.
    /// - Returns: The adopted folder's name, or nil if there was none.
    static func adoptAbandonedPartialFolder(of trial: Trial, as partial: URL) -> String? {
        for candidate in partialFolders(in: partial.deletingLastPathComponent(), of: trial.id)
        where candidate.pid != getpid() && ProcessLiveness.hasEnded(candidate.pid) && candidate.hasCheckpoint {
            if rename(candidate.url.path, partial.path) == 0 { return candidate.name }
        }
        return nil
    }

    /// Windows of every split that has data.
    static func windows(of dataset: LoadedDataset, configuration: ExperimentConfiguration) throws -> [String: WindowSet] {
        let builder = WindowBuilder(configuration.windows, layout: configuration.features.layout)
        var windows: [String: WindowSet] = [:]
        for split in RunReport.splitOrder {
            let sequences = dataset.sequences(of: split)
            guard !sequences.isEmpty else { continue }
            windows[split] = try builder.windows(of: sequences, labels: dataset.labels)
        }
        return windows
    }

    /// Root attributes of `weights.h5`: what an app needs to feed the model (``WeightsMetadataKey``).
    static func weightsMetadata(trial: Trial, labels: [String], savedEpoch: Int) -> [String: String] {
        let configuration = trial.configuration
        let layout = configuration.features.layout
        func json(_ values: [String]) -> String {
            (try? String(decoding: JSONEncoder().encode(values), as: UTF8.self)) ?? ""
        }
        let values: [(WeightsMetadataKey, String)] = [
            (.model, configuration.model.kind), (.labels, json(labels)),
            (.windowSize, "\(configuration.windows.size)"), (.frameRate, "\(configuration.windows.frameRate)"),
            (.layout, layout.name), (.joints, json(layout.joints)), (.channels, json(layout.channels)),
            (.inputShape, "[\(configuration.windows.size), \(layout.channelCount), \(layout.jointCount)]"),
            (.seed, "\(trial.seed)"), (.trial, trial.id), (.actionlabVersion, Provenance.actionlabVersion),
            (.savedEpoch, "\(savedEpoch)"),
        ]
        return Dictionary(uniqueKeysWithValues: values.map { ($0.0.rawValue, $0.1) })
    }
}

/// `config.json` of one trial: its id, seed and resolved configuration (read back by `actionlab compare`).
struct TrialConfigurationFile: Codable {
    var seed: Int
    var trial: String
    var configuration: ExperimentConfiguration
}
