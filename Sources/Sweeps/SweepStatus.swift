import Foundation
import Reports

/// Where every trial of a sweep folder stands (`actionlab status DIR`): finished, running,
/// pending, failed, interrupted, damaged, not started or not submitted, with the Slurm job, task,
/// state and log of its latest submission, and whether the reports are current. A trial is running
/// when a process holds its claim (``TrialClaim``), whatever launched it, or its Slurm task runs
/// and it is the task's current trial; it is interrupted when no process runs it and a killed
/// local run left its checkpoint, from which the next run resumes, or its Slurm task was ended by
/// `TERM` (`scancel`, its time limit, preemption; failed for a time-out before the first checkpoint). A finished trial is credited to a Slurm task only
/// when its `provenance.json` says that task trained it. It is damaged when its folder
/// `trials/<id>` exists without a readable `complete.json` (``TrialRunner/damage(of:in:)``); the
/// next run sets that folder aside and trains the trial again.
public struct SweepStatus: Sendable {
    /// One trial's state.
    public enum State: String, Sendable, Equatable {
        case finished, running, pending, failed, interrupted, damaged, notSubmitted = "not submitted"
        /// Submitted, and its Slurm task ended without ever starting (cancelled while pending):
        /// no log, no exit status. The next submission includes it.
        case notStarted = "not started"
        /// Submitted to Slurm, not finished, its task not known to have ended, and Slurm cannot
        /// be asked (``SweepStatus/slurmProblem``): running, pending or ended, nobody here knows.
        case unknown
    }

    /// One trial.
    public struct Row: Sendable, Equatable {
        public var trial: Int
        public var id: String
        public var state: State
        /// `<array job id>_<task id>` of the latest submission holding the trial; nil without one.
        public var job: String?
        /// Slurm's state (`squeue`'s) while the task is known to the controller; once it has
        /// ended, `sacct`'s state (when the cluster keeps accounting) and the exit status the task
        /// recorded: `TIMEOUT, exit 143 on node4`.
        public var slurmState: String?
        /// The task's log.
        public var log: URL?
        /// What is wrong with a damaged trial's folder, naming the file (and line).
        public var damage: String?
        /// A finished trial's divergence (its loss or weights stopped being finite; no weights, not
        /// scored), as its completion marker records it.
        public var diverged: String?
    }

    public var rows: [Row]
    /// Whether `leaderboard.csv` exists, is newer than every finished trial's `complete.json` and
    /// counts as many trials as have finished.
    public var reportsAreCurrent: Bool
    /// Why Slurm could not be asked about the folder's submissions (`squeue` missing, as on a
    /// laptop the folder was copied to, or the controller unreachable), or nil. What the folder
    /// itself records is shown all the same; trials whose task has not recorded its end are ``State/unknown``.
    public var slurmProblem: String?
    /// The records of how the sweep was made that its folder lost, by name: `manifest.json5`
    /// (the manifest's text, which nothing can rebuild; a sweep made in code has none) and
    /// `resolved.json` (which the next run writes again from `sweep.json`). The sweep's page links both.
    public var missingRecords: [String]
    /// Whether the folder was given to Slurm: it records submissions, or a submission attempt
    /// (``SlurmAttempt``); `run DIR` then submits to Slurm by default.
    public var givenToSlurm: Bool
    /// The job script of the folder's latest submission when `sbatch` refused it
    /// (``SlurmAttempt/refusedScript(given:in:)``), or nil.
    public var refusedScript: URL?
    /// What is wrong with the folder's Slurm records (`slurm/submissions.json`,
    /// `slurm/attempt.json`) that cannot be read, one message each naming the file; the trials are
    /// then shown as their folders alone say.
    public var damagedRecords: [String]
    /// The sweep folder.
    public var folder: URL

    /// Reads the folder and asks Slurm about its submissions' tasks: `squeue` for the live ones,
    /// `sacct` (when the cluster keeps accounting) for the ended ones.
    /// - Throws: `SweepError.notASweep` for a folder without `sweep.json`. When the folder has
    ///   submissions and `squeue` fails, ``slurmProblem`` says why instead (before, `status`
    ///   printed that error alone, nothing of the trials).
    public init(folder: URL, client: SlurmClient = SlurmClient()) throws {
        let record = try SweepRecord(folder: folder)
        // A damaged Slurm record is noted, not fatal: the trials' own folders still say where they stand.
        var damagedRecords: [String] = []
        let submissions: [SlurmSubmission]
        do {
            submissions = try SlurmSubmission.all(in: folder)
        } catch {
            submissions = []
            damagedRecords.append("\(error)")
        }
        let attempt: SlurmAttempt?
        do {
            attempt = try SlurmAttempt.latest(in: folder)
        } catch {
            attempt = nil
            damagedRecords.append("\(error)")
        }
        self.damagedRecords = damagedRecords
        self.folder = folder
        var queued: [SlurmClient.QueuedTask] = []
        var slurmProblem: String?
        do {
            queued = try client.queued(jobIDs: submissions.map(\.arrayJobID))
        } catch {
            slurmProblem = "\(error)"
        }
        self.slurmProblem = slurmProblem
        givenToSlurm = attempt != nil || !submissions.isEmpty
        refusedScript = attempt?.refusedScript(given: submissions, in: folder)
        let accounted = client.accounting(jobIDs: submissions.map(\.arrayJobID)) ?? [:]
        var newest: Date = .distantPast
        // Each trial's outcome once (it reads the trial's files); the rows of a task's later trials use them.
        let outcomes = record.trials.map { TrialRunner.outcome(of: $0, in: folder) }
        let unfinished = Set(zip(record.trials, outcomes).filter { $0.1 == nil }.map(\.0.index))
        rows = zip(record.trials, outcomes).map { trial, outcome in
            var row = Row(trial: trial.index, id: trial.id, state: .notSubmitted)
            if let outcome {
                row.state = .finished
                row.diverged = outcome.diverged.map { "\($0)" }
                let marker = TrialRunner.folder(of: trial, in: folder).appendingPathComponent(TrialRunner.completionMarker)
                if let date = (try? FileManager.default.attributesOfItem(atPath: marker.path))?[.modificationDate] as? Date {
                    newest = max(newest, date)
                }
            }
            guard let submission = submissions.last(where: { $0.tasks.contains { $0.contains(trial.index) } }),
                  let task = submission.tasks.firstIndex(where: { $0.contains(trial.index) }) else {
                return Self.local(row, of: trial, in: folder)
            }
            if row.state == .finished, !Self.trainedBySlurm(trial, job: submission.arrayJobID, task: task, in: folder) {
                // Finished by another process (a local `run DIR`): the task's record is not this trial's.
                return row
            }
            row.job = "\(submission.arrayJobID)_\(task)"
            row.log = submission.logURL(task: task, in: folder)
            if let live = queued.first(where: { $0.arrayJobID == submission.arrayJobID && ($0.taskID == task || $0.taskID == nil) }) {
                row.slurmState = Self.liveState(live)
                // A task that has not started has no log yet.
                if live.state == "PENDING", let log = row.log, !FileManager.default.fileExists(atPath: log.path) { row.log = nil }
                if row.state != .finished {
                    row.state = live.state == "PENDING" ? .pending : .running
                    // A task runs its trials one after another: one waiting behind another is not running.
                    if row.state == .running, !TrialClaim.isHeld(trial, in: folder),
                       let current = Self.unfinishedTrial(before: trial, inTask: submission.tasks[task], unfinished: unfinished) {
                        row.state = .pending
                        row.slurmState = "\(live.state); waits for trial \(current) in the same task"
                    }
                }
            } else {
                let ended = submission.exitStatus(task: task, in: folder)
                let accounting = accounted[row.job ?? ""]
                if row.state != .finished, ended == nil, accounting == nil, slurmProblem != nil {
                    row.state = .unknown
                    row.slurmState = "Slurm cannot be asked"
                } else if row.state != .finished, ended == nil, accounting == nil || accounting?.node == "None assigned",
                          let log = row.log, !FileManager.default.fileExists(atPath: log.path) {
                    row.state = .notStarted
                    row.slurmState = "cancelled or ended before it started"
                    row.log = nil
                } else if row.state != .finished,
                          let earlier = Self.unfinishedTrial(before: trial, inTask: submission.tasks[task], unfinished: unfinished),
                          TrialRunner.partialFolders(in: folder.appendingPathComponent("trials"), of: trial.id).isEmpty {
                    // --trials-per-task: the task ended while an earlier trial of it trained.
                    row.state = .notStarted
                    row.slurmState = "its task ended during trial \(earlier): " + Self.endedState(recorded: ended, accounted: accounting)
                } else if row.state != .finished {
                    // Stopped by TERM (scancel, preemption): interrupted, resumed from its checkpoint
                    // or, without one yet, started afresh by the next run; nothing failed. A time-out
                    // before the first checkpoint is a failure: the limit is too short to make progress.
                    let term = Self.endedByTerm(recorded: ended, accounted: accounting)
                    let checkpointed = Self.hasCheckpoint(trial, in: folder)
                    row.state = term && (checkpointed || accounting?.state != "TIMEOUT") ? .interrupted : .failed
                    row.slurmState = Self.endedState(recorded: ended, accounted: accounting)
                        + (term && !checkpointed ? "; no checkpoint yet, the next run starts it afresh" : "")
                } else if ended != nil || accounting != nil {
                    row.slurmState = Self.endedState(recorded: ended, accounted: accounting)
                }
            }
            return Self.local(row, of: trial, in: folder)
        }
        let leaderboard = folder.appendingPathComponent("leaderboard.csv")
        let written = (try? FileManager.default.attributesOfItem(atPath: leaderboard.path))?[.modificationDate] as? Date
        // Also counting exactly the finished trials: a trial damaged or removed after the reports
        // were written leaves them counting it, however new they are.
        reportsAreCurrent = (written.map { $0 >= newest } ?? false)
            && Self.trialsCounted(byLeaderboard: leaderboard) == rows.filter { $0.state == .finished }.count
        // The sweep's page links both.
        missingRecords = [SweepRecord.manifestCopyName, SweepRecord.resolvedConfigurationName]
            .filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }

    /// The number of trials `leaderboard.csv` counts, the sum of its `seeds` column; nil when the
    /// file cannot be read or parsed.
    static func trialsCounted(byLeaderboard url: URL) -> Int? {
        guard let text = try? String(contentsOf: url, encoding: .utf8), let table = try? Table.parse(csv: text),
              let column = table.column(named: "seeds") else { return nil }
        var count = 0
        for row in table.rows {
            guard let seeds = Int(row[column]) else { return nil }
            count += seeds
        }
        return count
    }

    /// `row` with what the folder itself says of an unfinished trial: running while a process
    /// holds its claim (a local `run`, credited to no Slurm task when its task has ended), else
    /// damaged when its folder lacks a readable completion marker, else, when no Slurm task ran it
    /// (not submitted, or its task never started), interrupted if a partial folder holds a training
    /// checkpoint (a Slurm task that ended by `TERM` was judged so already; one that failed
    /// otherwise stays `failed`, with its state and exit).
    static func local(_ row: Row, of trial: Trial, in folder: URL) -> Row {
        guard row.state != .finished else { return row }
        var row = row
        if TrialClaim.isHeld(trial, in: folder) {
            if [.failed, .interrupted, .notStarted].contains(row.state) {
                // Its task has ended: another process (a local `run DIR`) trains it, not that task.
                row.job = nil
                row.slurmState = nil
                row.log = nil
            }
            row.state = .running
        } else if let damage = TrialRunner.damage(of: trial, in: folder) {
            row.state = .damaged
            row.damage = damage
        } else if row.state == .notSubmitted || row.state == .notStarted, hasCheckpoint(trial, in: folder) {
            row.state = .interrupted
        }
        return row
    }

    /// The first trial of `tasksTrials` before `trial` that is in `unfinished`, or nil: a task runs
    /// its trials in order, so `trial` was never reached when the task ended.
    static func unfinishedTrial(before trial: Trial, inTask tasksTrials: [Int], unfinished: Set<Int>) -> Int? {
        guard let position = tasksTrials.firstIndex(of: trial.index) else { return nil }
        return tasksTrials[..<position].first { unfinished.contains($0) }
    }

    /// How a live task is shown: `squeue`'s state, and why a pending one waits, with what to do
    /// when the reason never clears by itself (the job asks more than the partition has).
    static func liveState(_ task: SlurmClient.QueuedTask) -> String {
        guard task.state == "PENDING", !task.reason.isEmpty, task.reason != "None" else { return task.state }
        let hints = [
            "PartitionConfig": "it asks more than the partition's nodes have (--cpus-per-task, --mem); scancel it and submit with less",
            "PartitionTimeLimit": "its --time exceeds the partition's limit; scancel it and submit with a shorter --time",
            "PartitionNodeLimit": "it asks more nodes than the partition allows; scancel it",
            "BadConstraints": "no node meets its constraints; scancel it and submit with others",
            "JobHeldUser": "held (sbatch --hold or scontrol hold); scontrol release \(task.arrayJobID) lets it start",
            "JobHeldAdmin": "held by an administrator",
        ]
        return "\(task.state): \(task.reason)" + (hints[task.reason].map { ", \($0)" } ?? "")
    }

    /// Whether an ended task was stopped by `TERM` (the job script records
    /// ``SlurmJobScript/terminatedStatus``, 143, when it is cancelled, reaches its time limit or is
    /// preempted), or `sacct` says so; a trial it stopped is interrupted, not failed: the next
    /// submission resumes it from its checkpoint, or starts it afresh (failed only for a time-out
    /// before the first checkpoint).
    static func endedByTerm(recorded: (status: Int, node: String)?, accounted: SlurmClient.AccountedTask?) -> Bool {
        if let recorded { return recorded.status == SlurmJobScript.terminatedStatus }
        return ["CANCELLED", "TIMEOUT", "PREEMPTED"].contains(accounted?.state ?? "")
    }

    /// Whether `trial`'s `provenance.json` records Slurm array task `job`_`task` as the process that
    /// trained it; false for a trial finished by a process outside Slurm or by another task.
    static func trainedBySlurm(_ trial: Trial, job: String, task: Int, in folder: URL) -> Bool {
        guard let ran = (try? Provenance.read(inFolder: TrialRunner.folder(of: trial, in: folder)))?.slurmArrayTask else { return false }
        return ran.jobID == job && ran.taskID == task
    }

    /// Whether a partial folder of `trial` (`trials/<id>.partial-<pid>`) holds a training checkpoint.
    static func hasCheckpoint(_ trial: Trial, in folder: URL) -> Bool {
        TrialRunner.partialFolders(in: folder.appendingPathComponent("trials"), of: trial.id).contains { $0.hasCheckpoint }
    }

    /// How an ended task is shown: `sacct`'s state when the cluster keeps accounting, and the
    /// exit status the task recorded, with its node: `TIMEOUT, exit 143 on node4`; without
    /// either, `ended without an exit status` (killed with `SIGKILL`, or its node failed).
    static func endedState(recorded: (status: Int, node: String)?, accounted: SlurmClient.AccountedTask?) -> String {
        var parts: [String] = []
        if let accounted { parts.append(accounted.state) }
        if let recorded {
            parts.append("exit \(recorded.status)" + (recorded.node.isEmpty ? "" : " on \(recorded.node)"))
        } else if let accounted {
            parts.append("exit code \(accounted.exitCode)" + (accounted.node.isEmpty ? "" : " on \(accounted.node)"))
        } else {
            parts.append("ended without an exit status")
        }
        return parts.joined(separator: ", ")
    }

    /// One line per trial and a last line on the reports.
    public var lines: [String] {
        var counts: [State: Int] = [:]
        for row in rows { counts[row.state, default: 0] += 1 }
        var lines = rows.map { row in
            var line = "trial \(row.trial) [\(row.id)]: \(row.state.rawValue)"
            if let diverged = row.diverged { line += " (diverged: \(diverged); no weights, not scored)" }
            if let job = row.job { line += ", Slurm task \(job)" }
            if let state = row.slurmState { line += " (\(state))" }
            if let log = row.log, row.state != .finished { line += ", log \(log.path)" }
            if let damage = row.damage {
                line += " (\(damage); the next run moves trials/\(row.id) to \(TrialRunner.damagedFoldersName)/ and trains the trial again)"
            }
            return line
        }
        if let slurmProblem {
            lines.append("note: Slurm cannot be asked about this folder's jobs (\(slurmProblem)); the trials are shown as the "
                + "folder records them, and those whose task has not recorded its end as unknown")
        }
        for damage in damagedRecords {
            lines.append("note: \(damage)")
        }
        if let refusedScript, rows.contains(where: { $0.state != .finished }) {
            lines.append("note: sbatch refused the latest submission (\(SlurmLauncher.folderName)/\(refusedScript.lastPathComponent)); "
                + "once the cause is fixed, 'actionlab run \(folder.path)' submits it again with the same resources, "
                + "'--launcher local' trains the trials here")
        }
        for name in missingRecords {
            lines.append(name == SweepRecord.manifestCopyName
                ? "note: \(name) is missing (the manifest this sweep was made from; results are unaffected, but its launcher "
                    + "section is lost: 'actionlab run DIR' "
                    + (givenToSlurm ? "submits to Slurm as its last submission did" : "runs here unless given --launcher slurm") + ")"
                : "note: \(name) is missing (the resolved configuration the summary links; the next 'actionlab run DIR' "
                    + "writes it again)")
        }
        let order: [State] = [.finished, .running, .pending, .failed, .interrupted, .damaged, .unknown, .notStarted, .notSubmitted]
        lines.append(order.compactMap { state in
            counts[state].map { "\($0) \(state.rawValue)" }
        }.joined(separator: ", ") + "; reports " + (reportsAreCurrent ? "current" : "not current"))
        return lines
    }
}
