import AtomicFiles
import Dataset
import FeatureCache
import Foundation
import Manifest
import NeuralNetwork
import Reports

/// Runs a sweep: every trial of a plan, in this process or in worker processes, resumable,
/// then the leaderboard and summary.
///
/// Folder layout: `manifest.json5`, `resolved.json` (base configuration), `sweep.json` (every
/// trial with its configuration), `trials/<id>/` (one finished trial each, see `TrialRunner`),
/// `claims/<id>.lock` (who trains a trial, see `TrialClaim`), `leaderboard.csv`, `summary.md`,
/// `report.html` (``SweepPage``), `charts/` and `tensorboard/` (the HParams experiment, see
/// ``TensorBoardLog``), written when the trials have run. The folder appears whole: it is created under a temporary
/// name and renamed into place.
///
/// Data problems are found before the folder is created: every distinct dataset is loaded
/// through the feature cache first, which also means worker processes only ever read the cache.
public struct SweepRunner {
    /// What to run.
    public var plan: SweepPlan
    /// The manifest file, copied into a new sweep folder; nil when resuming a folder.
    public var manifestURL: URL?
    /// Receives progress lines, from any thread (worker processes' termination handlers call it).
    public var log: @Sendable (String) -> Void
    /// Receives every trial's progress and the workers' log lines; nil lets workers write to
    /// standard error themselves.
    public var observer: SweepObserver?
    /// Called with the sweep folder once it exists, before any trial runs (`actionlab run` then
    /// knows what to say if it is interrupted).
    public var folderReady: (URL) -> Void = { _ in }

    public init(plan: SweepPlan, manifestURL: URL?, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.plan = plan
        self.manifestURL = manifestURL
        self.log = log
    }

    /// A runner that resumes the sweep in `folder`.
    /// - Throws: `SweepError.notASweep` if the folder has no readable `sweep.json`.
    public static func resuming(_ folder: URL, log: @escaping @Sendable (String) -> Void = { _ in }) throws -> SweepRunner {
        SweepRunner(plan: try SweepRecord(folder: folder).plan(), manifestURL: nil, log: log)
    }

    /// The default sweep folder: `<output.directory>/<name>/<UTC timestamp>`, with a suffix if taken.
    public func defaultOutputDirectory(now: Date = Date()) -> URL {
        Self.newFolder(for: plan, now: now)
    }

    /// A folder that does not exist yet: `<output.directory>/<name>/<prefix><UTC timestamp>`
    /// (`20261203-104842`), with a suffix (`-2`, `-3`, …) if taken.
    public static func newFolder(for plan: SweepPlan, prefix: String = "", now: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = plan.base.output.directory.appendingPathComponent(plan.base.name)
        let stamp = prefix + formatter.string(from: now)
        var candidate = base.appendingPathComponent(stamp)
        var suffix = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = base.appendingPathComponent("\(stamp)-\(suffix)")
            suffix += 1
        }
        return candidate
    }

    /// Runs every unfinished trial and writes the leaderboard and summary.
    /// - Parameters:
    ///   - output: The sweep folder. A folder holding the same sweep is resumed; any other
    ///     non-empty folder is an error. Default: ``defaultOutputDirectory(now:)``.
    ///   - jobs: Trials run at once. With more than one, each trial runs in a worker process
    ///     `workerExecutable trial <folder> <index>`; results are identical to one job.
    ///   - workerExecutable: The `actionlab` executable, needed when `jobs > 1`.
    ///   - prepareOnly: Create (or check) the folder and cache the data, but run no trial: a
    ///     cluster scheduler then runs `actionlab trial <folder> <index>` per trial, and a last
    ///     `actionlab run <folder>` writes the reports.
    /// - Returns: The sweep folder.
    /// - Throws: `DatasetError` for data that does not fit, a folder in the way, or failed
    ///   trials (after the others finished and the leaderboard was written).
    public func run(output: URL? = nil, jobs: Int = 1, workerExecutable: URL? = nil, prepareOnly: Bool = false) throws -> URL {
        let folder = output ?? defaultOutputDirectory()
        if let stored = try planWithStoredTrialIDs(in: folder) {
            // The folder holds this sweep under the ids an earlier version gave its trials.
            var runner = self
            runner.plan = stored
            return try runner.run(output: folder, jobs: jobs, workerExecutable: workerExecutable, prepareOnly: prepareOnly)
        }
        let resuming = try checkFolder(folder)
        if !resuming { try Self.checkCreatable(folder) }
        var datasets = try loadDatasets()
        if !resuming { try createFolder(folder) }
        removeAbandonedPartialFolders(in: folder.appendingPathComponent("trials"))
        if resuming { restoreResolvedConfiguration(in: folder) }
        if prepareOnly {
            let unfinished = plan.trials.filter { TrialRunner.outcome(of: $0, in: folder) == nil }.count
            log("sweep \(folder.path) prepared: "
                + (unfinished == 0
                    ? "all \(plan.trials.count) trials have finished; 'actionlab run \(folder.path)' writes the reports"
                    : "\(unfinished) of the \(plan.trials.count) trials (indices 0 to \(plan.trials.count - 1)) have not finished; "
                        + "'actionlab trial \(folder.path) INDEX' runs one"))
            return folder
        }

        folderReady(folder)
        let pending = plan.trials.filter { TrialRunner.outcome(of: $0, in: folder) == nil }
        Provenance.prepareProcessFacts()
        log("sweep \(folder.path): \(plan.trials.count - pending.count) of \(plan.trials.count) trials finished, running \(pending.count)"
            + (jobs > 1 && pending.count > 1 ? " with \(min(jobs, pending.count)) workers" : ""))
        if !pending.isEmpty, let warning = plan.threadWarning() { log(warning) }
        observer?.began(plan.trials.count, plan.trials.count - pending.count, jobs > 1 ? min(jobs, pending.count) : 1)
        var failures: [String] = []
        if jobs > 1 && pending.count > 1 {
            guard let workerExecutable else {
                throw ReportError.writeFailed(path: folder.path, reason: "running trials in parallel needs the actionlab executable")
            }
            failures = runInWorkers(pending, folder: folder, jobs: jobs, executable: workerExecutable)
        } else {
            failures = TrialRunner(log: log, progress: observer?.progress ?? { _ in })
                .runEach(pending, in: folder) { datasets[DatasetKey($0.configuration)] }
        }
        datasets.removeAll()
        try writeReports(folder)
        guard failures.isEmpty else { throw SweepError.trialsFailed(failures) }
        return folder
    }

    /// Imports (or reads from the cache) every dataset of the plan and checks it against each
    /// configuration's windows, as `run` does before it writes anything; returns one line per
    /// dataset and split (`actionlab validate --data`).
    /// - Throws: What `run` would throw for the data.
    public func checkData() throws -> [String] {
        var lines: [String] = []
        var described = Set<DatasetKey>()
        let datasets = try loadDatasets()
        for (key, dataset) in datasets where !described.contains(key) {
            described.insert(key)
            lines.append("classes: \(dataset.labels.joined(separator: ", "))")
            for message in dataset.skipped { lines.append("skipped: \(message)") }
            for split in RunReport.splitOrder {
                let sequences = dataset.sequences(of: split)
                guard !sequences.isEmpty else { continue }
                let frames = sequences.map(\.frameCount)
                lines.append("\(split): \(sequences.count) sequences, \(frames.min() ?? 0) to \(frames.max() ?? 0) frames")
            }
        }
        // Windows per split and label, once per distinct dataset and window settings.
        var counted = Set<WindowCountKey>()
        for (index, cell) in plan.cells.enumerated() {
            guard let dataset = datasets[DatasetKey(cell)], counted.insert(WindowCountKey(cell)).inserted else { continue }
            let cellName = plan.sweep.axes.isEmpty ? "" : " (sweep cell \(index): \(plan.trials.first { $0.cell == index }?.label ?? ""))"
            lines.append(cell.windows.sampling == .uniform
                ? "windows: one per recording, resampled to \(cell.windows.size) frames\(cellName):"
                : "windows of \(cell.windows.size) frames, stride \(cell.windows.stride)\(cellName):")
            lines += try SplitWindowCounts(dataset: dataset, configuration: cell).table.markdown
                .split(separator: "\n").map { "  " + $0 }
        }
        return lines
    }

    /// Runs trial `index` of the sweep in `folder` (the worker side of `jobs > 1`, and what a
    /// cluster scheduler's array task calls).
    public static func runTrial(index: Int, in folder: URL, log: @escaping @Sendable (String) -> Void) throws {
        try runTrials(indices: [index], in: folder, log: log)
    }

    /// Runs trials `indices` of the sweep in `folder`, one after another in this process, loading
    /// each dataset once for all of them (the worker side of `jobs > 1`). A trial that another
    /// process is training is passed over, then waited for at the end (``TrialRunner/runEach(_:in:dataset:)``).
    /// - Throws: `SweepError.noSuchTrial` for an index outside the sweep (before any trial
    ///   runs), `SweepError.trialsFailed` listing the trials that failed (after the others ran).
    public static func runTrials(indices: [Int], in folder: URL, log: @escaping @Sendable (String) -> Void) throws {
        let record = try SweepRecord(folder: folder)
        for index in indices where !record.trials.indices.contains(index) {
            throw SweepError.noSuchTrial(index: index, count: record.trials.count)
        }
        var datasets: [DatasetKey: LoadedDataset] = [:]
        Provenance.prepareProcessFacts()
        WorkerLifeline.watchParentIfWorker(log: log)
        let runner = TrialRunner(log: log, progress: SweepObserver.workerProgressWriter ?? { _ in })
        let failures = runner.runEach(indices.map { record.trials[$0] }, in: folder) { trial in
            let key = DatasetKey(trial.configuration)
            if let loaded = datasets[key] { return loaded }
            let cache = try FeatureCache(directory: trial.configuration.features.cache)
            let loaded = try DatasetLoader(configuration: trial.configuration, cache: cache).load()
            datasets[key] = loaded
            return loaded
        }
        guard failures.isEmpty else { throw SweepError.trialsFailed(failures) }
    }

    // MARK: - Steps

    /// The plan with the trial ids stored in `folder`, when the folder holds this sweep's trials
    /// under other ids (made by a version whose ids also hashed `features.cache` and
    /// `output.directory`); nil otherwise, including for a folder without a readable record.
    private func planWithStoredTrialIDs(in folder: URL) throws -> SweepPlan? {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(SweepRecord.fileName).path),
              let existing = try? SweepRecord(folder: folder), existing.trials.map(\.id) != plan.trials.map(\.id) else { return nil }
        return try plan.adoptingTrialIDs(of: existing.trials)
    }

    /// Whether `folder` holds this sweep already (resume); throws if it holds anything else.
    private func checkFolder(_ folder: URL) throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return false }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(SweepRecord.fileName).path) {
            let existing = try SweepRecord(folder: folder)
            guard existing.trials.map(\.id) == plan.trials.map(\.id) else {
                throw SweepError.sweepMismatch(
                    path: folder.path,
                    reason: "the folder holds another sweep (its trials differ from this manifest's); choose another --output")
            }
            return true
        }
        guard isDirectory.boolValue else {
            throw ReportError.writeFailed(path: folder.path, reason: "it is a file; --output names the folder to create")
        }
        if SweepRecord.isInterruptedCreation(folder) {
            log("\(folder.path): its creation was interrupted before \(SweepRecord.fileName) was written (it holds no trial); "
                + "creating it afresh")
            return false
        }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard contents.isEmpty else {
            throw ReportError.writeFailed(path: folder.path, reason: "the output folder exists, is not empty and is not a sweep; choose another --output")
        }
        return false
    }

    /// Every distinct dataset of the plan, loaded (and so cached) once, and checked against
    /// each cell (`LoadedDataset.checkTrainable(under:context:)`: classes, labels, shapes,
    /// windows, validation), its warnings logged once each.
    private func loadDatasets() throws -> [DatasetKey: LoadedDataset] {
        var datasets: [DatasetKey: LoadedDataset] = [:]
        var warned = Set<String>()
        for (index, cell) in plan.cells.enumerated() {
            let key = DatasetKey(cell)
            if datasets[key] == nil {
                let log = self.log
                let cache = try FeatureCache(directory: cell.features.cache) { discarded in
                    log("warning: \(discarded)")
                }
                datasets[key] = try DatasetLoader(configuration: cell, cache: cache, log: log).load()
            }
            guard let dataset = datasets[key] else { continue }
            let cellLabel = plan.trials.first { $0.cell == index }?.label ?? ""
            let cellName = plan.sweep.axes.isEmpty ? "" : " in sweep cell \(index) (\(cellLabel))"
            for warning in try dataset.checkTrainable(under: cell, context: cellName) where warned.insert(warning).inserted {
                log(warning)
            }
        }
        return datasets
    }

    /// Fails before any work if `folder` cannot be created: its nearest existing ancestor must
    /// be a writable folder.
    private static func checkCreatable(_ folder: URL) throws {
        var ancestor = folder
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory)
        guard isDirectory.boolValue else {
            throw ReportError.writeFailed(path: folder.path, reason: "\(ancestor.path) is a file, not a folder")
        }
        guard access(ancestor.path, W_OK) == 0 else {
            throw ReportError.writeFailed(path: folder.path, reason: "\(ancestor.path) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// Creates the sweep folder atomically: its files are written into a temporary sibling
    /// (`.<name>.tmp-<pid>-<uuid>`, see `AtomicFile.temporaryURL(for:)`) that is renamed into
    /// place complete, so a killed run leaves either no folder or a whole one. An empty folder
    /// or one whose creation an older version left half-done (``SweepRecord/isInterruptedCreation(_:)``)
    /// is replaced; when another run of the same sweep created the folder first, this one joins it.
    private func createFolder(_ folder: URL) throws {
        let parent = folder.deletingLastPathComponent()
        let temporary = AtomicFile.temporaryURL(for: folder)
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            // Left by runs killed while creating this folder.
            AtomicFile.removeStaleTemporaryFiles(in: parent, destinationName: folder.lastPathComponent)
            try FileManager.default.createDirectory(at: temporary.appendingPathComponent("trials"), withIntermediateDirectories: true)
        } catch {
            throw ReportError.writeFailed(path: folder.path, reason: ReportError.reason(error))
        }
        do {
            // Nobody sees the temporary folder: one flush for its files, before the rename.
            try AtomicFile.withDeferredSync(flushing: temporary) {
                if let manifestURL {
                    let manifest: Data
                    do {
                        manifest = try Data(contentsOf: manifestURL)
                    } catch {
                        throw ReportError.writeFailed(
                            path: manifestURL.path, reason: "cannot re-read the manifest: \(FileErrorReason.of(error))")
                    }
                    try AtomicFile.write(manifest, to: temporary.appendingPathComponent(SweepRecord.manifestCopyName))
                }
                try AtomicFile.write(plan.base.resolvedJSON(), to: temporary.appendingPathComponent(SweepRecord.resolvedConfigurationName))
                try AtomicFile.writeJSON(SweepRecord(plan: plan), to: temporary.appendingPathComponent(SweepRecord.fileName))
            }
            if SweepRecord.isInterruptedCreation(folder) { try? FileManager.default.removeItem(at: folder) }
            // rename(2) replaces an empty folder and fails on a non-empty one.
            if rename(temporary.path, folder.path) != 0 {
                let reason = String(cString: strerror(errno))
                guard try checkFolder(folder) else { throw ReportError.writeFailed(path: folder.path, reason: reason) }
                try? FileManager.default.removeItem(at: temporary)
                log("\(folder.path) was created by another run of this sweep at the same time; joining it")
                return
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try? AtomicFile.sync(path: parent.path, directory: true)
    }

    /// Writes `resolved.json` again when a sweep folder lost it (the resolved base configuration
    /// that the summary links; it follows from `sweep.json`, whatever options this run adjusts).
    /// `manifest.json5`, the manifest's own text, cannot be rebuilt; `status` notes its loss.
    private func restoreResolvedConfiguration(in folder: URL) {
        let url = folder.appendingPathComponent(SweepRecord.resolvedConfigurationName)
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try AtomicFile.write(try SweepRecord(folder: folder).plan().base.resolvedJSON(), to: url)
            log("\(url.path) was missing; wrote it again from \(SweepRecord.fileName)")
        } catch {
            log("warning: \(url.path) is missing and could not be written again: \(error)")
        }
    }

    /// Runs `trials` in up to `jobs` worker processes; returns one message per failed trial.
    private func runInWorkers(_ trials: [Trial], folder: URL, jobs: Int, executable: URL) -> [String] {
        // One process per worker, each running every `jobs`-th trial: a process pays its start-up
        // and data loading once, not once per trial. Trials are cell-major, so the stripes get
        // alike mixes of configurations.
        let stripes = (0..<min(jobs, trials.count)).map { worker in
            Swift.stride(from: worker, to: trials.count, by: jobs).map { trials[$0] }
        }
        // Workers that together start more compute threads than there are processors would spin
        // on cores other workers need: they wait passively unless the environment says otherwise.
        let threads = trials.map(\.configuration.training.threads).max() ?? 1
        let oversubscribed = stripes.count * threads > FeatureConfiguration.availableCores()
            && ProcessInfo.processInfo.environment[ComputeThreads.waitPolicyVariable] == nil
        let group = DispatchGroup()
        let failures = MessageList()
        let lifeline = WorkerLifeline.Parent()
        for stripe in stripes {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["trial", folder.path] + stripe.map { "\($0.index)" }
            var environment = [Provenance.gitCommitEnvironmentKey: Provenance.gitCommit]
            if oversubscribed { environment[ComputeThreads.waitPolicyVariable] = ComputeThreads.WaitPolicy.passive.rawValue }
            let output = Pipe(), errors = Pipe()
            if let observer {
                environment[TrialProgress.workerEnvironmentKey] = "1"
                process.standardOutput = output
                process.standardError = errors
                SweepObserver.readLines(of: output, group: group) { line in
                    if let event = try? JSONDecoder().decode(TrialProgress.self, from: Data(line.utf8)) { observer.progress(event) }
                }
                SweepObserver.readLines(of: errors, group: group, observer.workerLine)
            }
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            group.enter()
            let indices = stripe.map { "\($0.index)" }.joined(separator: ", ")
            let log = self.log
            process.terminationHandler = { process in
                // A worker logs its own trials' errors; a signal it cannot log, so say it here.
                if process.terminationReason == .uncaughtSignal {
                    let signal = process.terminationStatus
                    let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
                    log("worker \(process.processIdentifier) (trials \(indices)) was killed by signal \(signal) (\(name))"
                        + (signal == SIGKILL ? ": by hand, or by the system when memory ran out" : "")
                        + "; its unfinished trials resume on the next 'actionlab run' of this folder")
                }
                group.leave()
            }
            do {
                try lifeline.attach(to: process)
                try process.run()
            } catch {
                failures.append("trials \(indices): cannot start \(executable.path): \(error)")
                // No child holds the pipes' write ends: close ours, so their readers see the end.
                try? output.fileHandleForWriting.close()
                try? errors.fileHandleForWriting.close()
                group.leave()
            }
        }
        group.wait()
        withExtendedLifetime(lifeline) {}
        // A worker that failed or died leaves its unfinished trials without a completion marker
        // (listed in trial order).
        for trial in trials where TrialRunner.outcome(of: trial, in: folder) == nil {
            failures.append("trial \(trial.index) [\(trial.id)] \(trial.label) seed \(trial.seed): not finished by its worker (see the log above)")
        }
        return failures.messages
    }

    /// How the first finished trial's data was split (its `provenance.json`), or empty. Every
    /// cell of a sweep shares the split (the split's seed is not a swept training seed).
    static func splitMethods(in folder: URL, trials: [Trial]) -> [String] {
        for trial in trials {
            guard let provenance = try? Provenance.read(inFolder: TrialRunner.folder(of: trial, in: folder)) else { continue }
            return provenance.splitMethods ?? []
        }
        return []
    }

    /// `leaderboard.csv`, the charts, `summary.md` and `report.html` from the finished trials
    /// (`run DIR --reports-only`, the Slurm launcher's report job): unfinished trials count as
    /// missing.
    /// - Throws: `ReportError` when a report cannot be written.
    public func writeReports(_ folder: URL) throws {
        let leaderboard = Leaderboard(plan: plan, folder: folder)
        try AtomicFile.write(leaderboard.csvTable.csv, to: folder.appendingPathComponent("leaderboard.csv"))
        let charts = try SweepCharts(plan: plan, leaderboard: leaderboard).write(to: folder)
        let ensembles = StreamEnsemble.ensembles(plan: plan, leaderboard: leaderboard, folder: folder)
        if !ensembles.isEmpty {
            try AtomicFile.write(
                StreamEnsemble.csvTable(ensembles, parameters: leaderboard.parameters).csv, to: folder.appendingPathComponent("ensembles.csv"))
        }
        let summary = SweepSummary(
            plan: plan, leaderboard: leaderboard, missing: plan.trials.count - leaderboard.finishedTrials,
            splitMethods: Self.splitMethods(in: folder, trials: plan.trials), ensembles: ensembles)
        try AtomicFile.write(summary.markdown, to: folder.appendingPathComponent("summary.md"))
        try TensorBoardLog.sweepFile(plan: plan, name: folder.lastPathComponent, wallTime: Date().timeIntervalSince1970)
            .write(toFolder: folder.appendingPathComponent(TensorBoardLog.folderName))
        try AtomicFile.write(SweepPage(summary: summary, charts: charts).html, to: folder.appendingPathComponent(SweepPage.fileName))
        log("summary: \(folder.appendingPathComponent("summary.md").path)")
    }

    /// Removes `<id>.partial-<pid>` folders whose process is gone (left by a killed run), except
    /// those holding a checkpoint of an unfinished trial: ``TrialRunner`` resumes from them.
    private func removeAbandonedPartialFolders(in folder: URL) {
        for partial in TrialRunner.partialFolders(in: folder) where ProcessLiveness.hasEnded(partial.pid) {
            let finished = FileManager.default.fileExists(atPath: folder.appendingPathComponent(partial.trialID).path)
            if partial.hasCheckpoint && !finished {
                log("keeping \(partial.name), left by a run that was killed: its trial resumes from its checkpoint")
                // Its trial is not claimed here: only files whose writer has ended go.
                AtomicFile.removeStaleTemporaryFiles(in: partial.url)
                continue
            }
            log("removing \(partial.name), left by a run that was killed")
            try? FileManager.default.removeItem(at: partial.url)
        }
    }
}

/// Messages appended from worker termination handlers, behind a lock.
///
/// `@unchecked Sendable`: `storage` is read and written only with `lock` held.
private final class MessageList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(message)
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// The settings that determine a loaded dataset: trials that share them share one load.
struct DatasetKey: Hashable {
    var dataset: DatasetConfiguration
    var features: FeatureConfiguration

    init(_ configuration: ExperimentConfiguration) {
        dataset = configuration.dataset
        features = configuration.features
    }
}

/// The settings that decide a configuration's window counts: its data and its windows.
struct WindowCountKey: Hashable {
    var data: DatasetKey
    var windows: WindowConfiguration

    init(_ configuration: ExperimentConfiguration) {
        data = DatasetKey(configuration)
        windows = configuration.windows
    }
}
