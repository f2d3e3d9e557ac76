import AtomicFiles
import Foundation
import JSON5

/// Runs a sweep's trials as a Slurm job array (`actionlab run … --launcher slurm`), and a
/// manifest's pose extraction (``submitExtraction(manifest:shards:jobFolder:name:)``).
///
/// A submission prepares the sweep folder and the feature cache (as `run --prepare`), writes the
/// job script (``SlurmJobScript``) to `slurm/submission-<n>.sbatch` and the attempt with its
/// resources to `slurm/attempt.json` (``SlurmAttempt``), submits an array of the
/// unfinished trials that no live earlier submission holds, then a report job
/// (`--dependency=afterany:<array id>`) running `actionlab run DIR --reports-only`, and records
/// both in `slurm/submissions.json` (``SlurmSubmission``). It returns once submitted.
///
/// Every trial still completes once: array tasks claim trials as local workers do
/// (``TrialClaim``), trial folders appear whole by rename, and a cancelled, preempted or
/// timed-out task leaves its checkpoint, which the next task to run the trial resumes.
public struct SlurmLauncher {
    /// The sweep folder's subfolder of job scripts, submission records, logs and task exit files.
    public static let folderName = "slurm"

    public var client: SlurmClient
    public var options: SlurmJobScript.Options
    /// The `actionlab` executable the tasks run.
    public var executable: URL

    public init(options: SlurmJobScript.Options, executable: URL, client: SlurmClient = SlurmClient()) {
        self.options = options
        self.executable = executable
        self.client = client
    }

    /// The job script of submission `number` in `folder`: `slurm/submission-<number>.sbatch`.
    public static func scriptURL(number: Int, in folder: URL) -> URL {
        folder.appendingPathComponent(folderName).appendingPathComponent("submission-\(number).sbatch")
    }

    /// What the options ask of one node that no node of their partition has
    /// (``SlurmClient/largestNode(partitions:)``): such tasks would pend for ever
    /// (`PartitionConfig`) where the cluster does not refuse them. Empty when they fit, or when
    /// `sinfo` cannot tell.
    /// - Parameter cpusPerTask: The tasks' `--cpus-per-task`, the default applied.
    public func resourceWarnings(cpusPerTask: Int) -> [String] {
        guard let node = client.largestNode(partitions: options.partition) else { return [] }
        let partition = options.partition.map { "partition \($0)" } ?? "the default partition"
        var warnings: [String] = []
        if cpusPerTask > node.cpus {
            warnings.append("warning: each task asks \(cpusPerTask) CPUs (--cpus-per-task), and no node of \(partition) has more "
                + "than \(node.cpus) (sinfo): the tasks will pend (PartitionConfig) unless the cluster refuses them")
        }
        if let memory = options.memory, let megabytes = SlurmJobScript.memoryMegabytes(memory), megabytes > node.memoryMB {
            warnings.append("warning: each task asks \(memory) of memory (--mem), and no node of \(partition) has more than "
                + "\(node.memoryMB) MB (sinfo): the tasks will pend (PartitionConfig) unless the cluster refuses them")
        }
        return warnings
    }

    /// Submits the unfinished trials of the prepared sweep in `folder`.
    /// - Returns: The submission, or nil when every trial has finished or is queued already.
    /// - Throws: ``SlurmClient/SlurmError`` when Slurm refuses; `SweepError` for the folder; an
    ///   `AtomicFiles` error when the script or the record cannot be written.
    public func submit(_ folder: URL, log: (String) -> Void) throws -> SlurmSubmission? {
        let record = try SweepRecord(folder: folder)
        let slurmFolder = folder.appendingPathComponent(Self.folderName)
        try FileManager.default.createDirectory(at: slurmFolder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        var submissions = try SlurmSubmission.all(in: folder)
        let number = submissions.count + 1
        // Recorded before Slurm is asked anything, so that a submission squeue or sbatch fails
        // still leaves the folder to Slurm with these resources (`run DIR` submits again with them).
        try SlurmAttempt(number: number, options: options).write(in: folder)
        let queued = try client.queued(jobIDs: submissions.map(\.arrayJobID))
        let held = Set(submissions.flatMap { submission in
            submission.tasks.enumerated().filter { task, _ in
                queued.contains { $0.arrayJobID == submission.arrayJobID && ($0.taskID == nil || $0.taskID == task) }
            }.flatMap(\.element)
        })
        let unfinished = record.trials.filter { TrialRunner.outcome(of: $0, in: folder) == nil }.map(\.index)
        let toRun = unfinished.filter { !held.contains($0) }
        guard !toRun.isEmpty else {
            log(unfinished.isEmpty
                ? "sweep \(folder.path): all \(record.trials.count) trials have finished"
                : "sweep \(folder.path): the \(unfinished.count) unfinished trials are queued or running already")
            return nil
        }
        let tasks = SlurmJobScript.trialGroups(toRun, trialsPerTask: options.trialsPerTask)
        let quote = SlurmJobScript.quoted
        let script = SlurmJobScript(
            name: "actionlab-\(record.name)", jobFolder: slurmFolder,
            summary: ["Written by actionlab run --launcher slurm: \(toRun.count) trial\(toRun.count == 1 ? "" : "s") of",
                      "\(folder.standardizedFileURL.path) in \(tasks.count) array task\(tasks.count == 1 ? "" : "s")."],
            setup: ["tasks=(" + tasks.map { "\"\($0.map(String.init).joined(separator: " "))\"" }.joined(separator: " ") + ")"],
            command: "\(quote(executable.standardizedFileURL.path)) trial \(quote(folder.standardizedFileURL.path)) "
                + "${tasks[$SLURM_ARRAY_TASK_ID]}",
            taskCount: tasks.count, options: options, defaultCPUsPerTask: record.base.training.threads)
        let scriptURL = Self.scriptURL(number: number, in: folder)
        try AtomicFile.write(script.text, to: scriptURL)
        resourceWarnings(cpusPerTask: options.cpusPerTask ?? max(record.base.training.threads, 1)).forEach(log)
        let arrayID = try client.submit(scriptURL)
        // The array is recorded as soon as it is queued, so that status and the next submission
        // know its tasks even if the report job is refused.
        submissions.append(SlurmSubmission(
            number: number, arrayJobID: arrayID, reportJobID: "", tasks: tasks,
            submitted: Date().timeIntervalSince1970, options: options))
        try AtomicFile.writeJSON(submissions, to: SlurmSubmission.fileURL(in: folder))
        let trials = "\(toRun.count) trial\(toRun.count == 1 ? "" : "s") in \(tasks.count) task\(tasks.count == 1 ? "" : "s")"
        let reportURL = slurmFolder.appendingPathComponent("report-\(number).sbatch")
        try AtomicFile.write(Self.reportScript(folder: folder, executable: executable, name: "actionlab-\(record.name)-report",
                                              options: options), to: reportURL)
        do {
            submissions[submissions.count - 1].reportJobID = try client.submit(reportURL, arguments: ["--dependency=afterany:\(arrayID)"])
        } catch let error as SlurmClient.SlurmError {
            log("submitted job array \(arrayID) (\(trials); logs in \(slurmFolder.path)/logs), but sbatch refused its report job "
                + "(\(error)): once the array has ended, 'actionlab run \(folder.path) --reports-only' writes the reports")
            return submissions[submissions.count - 1]
        }
        try AtomicFile.writeJSON(submissions, to: SlurmSubmission.fileURL(in: folder))
        let submission = submissions[submissions.count - 1]
        log("submitted job array \(arrayID) (\(trials); logs in \(slurmFolder.path)/logs) and report job \(submission.reportJobID) (after it)")
        return submission
    }

    /// The report job: `actionlab run DIR --reports-only` on one CPU.
    static func reportScript(folder: URL, executable: URL, name: String, options: SlurmJobScript.Options) -> String {
        var lines = [
            "#!/bin/bash",
            "# Written by actionlab run --launcher slurm: the leaderboard, summary and charts, once the array has ended.",
            "#SBATCH --job-name=\(SlurmJobScript.quoted(name))",
            "#SBATCH --output=\(SlurmJobScript.quoted(folder.standardizedFileURL.path + "/slurm/logs/%j-report.out"))",
            "#SBATCH --cpus-per-task=1",
        ]
        if let partition = options.partition { lines.append("#SBATCH --partition=\(SlurmJobScript.quoted(partition))") }
        for argument in options.extraArguments { lines.append("#SBATCH \(argument)") }
        lines.append("exec \(SlurmJobScript.quoted(executable.standardizedFileURL.path)) run "
            + "\(SlurmJobScript.quoted(folder.standardizedFileURL.path)) --reports-only")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One submission of a sweep to Slurm, as recorded in `slurm/submissions.json` (a JSON array).
public struct SlurmSubmission: Codable, Equatable, Sendable {
    /// 1 for the first submission of the folder, then 2, …
    public var number: Int
    /// The job array's id.
    public var arrayJobID: String
    /// The report job's id; empty when `sbatch` accepted the array but refused the report job
    /// (`run DIR --reports-only` then writes the reports).
    public var reportJobID: String
    /// The trial indices of each array task.
    public var tasks: [[Int]]
    /// Seconds since 1970.
    public var submitted: Double
    /// The resources it was submitted with; `run DIR --launcher slurm` submits again with them,
    /// unless the command line gives others. Nil in records written before it was kept.
    public var options: SlurmJobScript.Options?

    /// `slurm/submissions.json` in `folder`.
    public static func fileURL(in folder: URL) -> URL {
        folder.appendingPathComponent(SlurmLauncher.folderName).appendingPathComponent("submissions.json")
    }

    /// The submissions of the sweep in `folder`, oldest first; empty when there are none.
    /// - Throws: `SweepError.slurmRecord` naming the file when it exists but is not a submission list.
    public static func all(in folder: URL) throws -> [SlurmSubmission] {
        let url = fileURL(in: folder)
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        do {
            return try JSONDocument.decode([SlurmSubmission].self, from: data)
        } catch {
            throw SweepError.slurmRecord(
                path: url.path,
                reason: "not a list of Slurm submissions written by run --launcher slurm: \(error); 'actionlab run DIR "
                    + "--launcher local' and 'status' do without it; delete it only once no task of the sweep is queued or "
                    + "running (squeue), since a new submission would not know which trials they hold")
        }
    }

    /// The log of task `task`.
    public func logURL(task: Int, in folder: URL) -> URL {
        folder.appendingPathComponent("\(SlurmLauncher.folderName)/logs/\(arrayJobID)_\(task).out")
    }

    /// The exit status task `task` recorded, with its node, or nil while it has not ended.
    public func exitStatus(task: Int, in folder: URL) -> (status: Int, node: String)? {
        SlurmJobScript.exitStatus(arrayJobID: arrayJobID, task: task, in: folder.appendingPathComponent(SlurmLauncher.folderName))
    }
}
