import Foundation

/// The batch script of a Slurm job array: task `k` (`$SLURM_ARRAY_TASK_ID`) runs one `actionlab`
/// command, in the background so that the script can pass signals on to it.
///
/// `run --launcher slurm` writes one into the sweep folder (`slurm/submission-<n>.sbatch`, task
/// `k` running `actionlab trial SWEEP_DIR i j …` for the trials of ``trialGroups(_:trialsPerTask:)``
/// `[k]`), and `extract --launcher slurm` into its job folder (task `k` running
/// `actionlab extract MANIFEST --shard k/n`), before submitting it, so that what runs on the
/// cluster can be read. Each task writes its exit status and node to
/// `<job folder>/tasks/<array job id>_<task id>.exit` (by temporary file and rename) when it ends,
/// also on `scancel`, preemption and time-outs (a `TERM` trap), because a cluster without
/// accounting has no `sacct` to ask afterwards.
///
/// Directives follow `sbatch(1)` of Slurm 22.05: `--array=0-<n−1>%<throttle>`, output
/// `<job folder>/logs/%A_%a.out` (array job id, task id), `--requeue`, and `--signal=B:TERM@60`
/// (`TERM` to the script a minute before the time limit).
public struct SlurmJobScript: Equatable, Sendable {
    /// Resources and scheduling of every array task.
    public struct Options: Equatable, Sendable, Codable {
        /// `--partition`; nil: the cluster's default partition.
        public var partition: String?
        /// `--time`, in Slurm's formats (`MM`, `HH:MM:SS`, `D-HH`); nil: the partition's default.
        public var time: String?
        /// `--cpus-per-task`; nil: the launcher's default (`training.threads` for trials, 1 for extraction).
        public var cpusPerTask: Int?
        /// `--mem` (`8G`, `4000M`); nil: the partition's default.
        public var memory: String?
        /// The array throttle `%K`: at most K tasks at once; nil: no throttle.
        public var maxParallel: Int?
        /// Trials run one after another by each task; nil: one, or more when the sweep has more
        /// trials than ``maxArrayTasks``.
        public var trialsPerTask: Int?
        /// Further `sbatch` arguments, one directive each (`--account=lab`, `--qos=long`).
        public var extraArguments: [String]

        /// What is wrong with these options, one message each, naming the option by its key
        /// (`time`, `extraArguments[1]`): what `--time`, `--mem`, `--sbatch-arg` and the others
        /// and the manifest's `launcher` section refuse. Empty when a job script may carry them;
        /// options read back from a folder's records (``SlurmAttempt``, ``SlurmSubmission``) are
        /// checked with it before they are submitted again.
        public var problems: [String] {
            var problems: [String] = []
            for (key, value) in [("partition", partition), ("time", time), ("memory", memory)] {
                if let value, value.isEmpty || value.contains(where: \.isNewline) {
                    problems.append("\(key) \(SlurmJobScript.quoted(value)): expected one line of text, not empty")
                }
            }
            if let time, !time.contains(where: \.isNewline), let problem = SlurmJobScript.problem(withTimeLimit: time) {
                problems.append("time \(SlurmJobScript.quoted(time)): \(problem)")
            }
            if let memory, !memory.contains(where: \.isNewline), let problem = SlurmJobScript.problem(withMemory: memory) {
                problems.append("memory \(SlurmJobScript.quoted(memory)): \(problem)")
            }
            for (key, value) in [("cpusPerTask", cpusPerTask), ("maxParallel", maxParallel), ("trialsPerTask", trialsPerTask)] {
                if let value, value < 1 { problems.append("\(key) \(value): expected a whole number of at least 1") }
            }
            for (index, argument) in extraArguments.enumerated() {
                if let problem = SlurmJobScript.problem(withExtraArgument: argument) {
                    problems.append("extraArguments[\(index)] \(SlurmJobScript.quoted(argument)): \(problem)")
                }
            }
            return problems
        }

        public init(
            partition: String? = nil, time: String? = nil, cpusPerTask: Int? = nil, memory: String? = nil,
            maxParallel: Int? = nil, trialsPerTask: Int? = nil, extraArguments: [String] = []
        ) {
            self.partition = partition
            self.time = time
            self.cpusPerTask = cpusPerTask
            self.memory = memory
            self.maxParallel = maxParallel
            self.trialsPerTask = trialsPerTask
            self.extraArguments = extraArguments
        }
    }

    /// The exit status a task records when it is stopped by `TERM` (`scancel`, its time limit,
    /// preemption): 128 + 15, the shell's status for a command ended by signal 15.
    public static let terminatedStatus = 143

    /// Slurm's default `MaxArraySize` is 1001 (task ids 0 to 1000); sweeps with more trials put
    /// several in a task.
    public static let maxArrayTasks = 1000

    /// The number of array tasks.
    public let taskCount: Int
    /// The whole script.
    public let text: String

    /// - Parameters:
    ///   - name: The job name (`--job-name`).
    ///   - jobFolder: Where `logs/` and `tasks/` go, on a file system every node sees.
    ///   - summary: Comment lines at the top: what the array does.
    ///   - setup: Shell lines run before the task's command (`tasks=(…)`).
    ///   - command: The task's command, one shell line, its words quoted with ``quoted(_:)``;
    ///     it may read `$SLURM_ARRAY_TASK_ID`.
    ///   - taskCount: The number of array tasks, at least 1.
    ///   - options: Resources and scheduling.
    ///   - defaultCPUsPerTask: `--cpus-per-task` when ``Options/cpusPerTask`` is nil.
    ///   - workingDirectory: `--chdir`, where the tasks run; nil: `sbatch`'s default, the
    ///     folder it was called from.
    public init(
        name: String, jobFolder: URL, summary: [String], setup: [String] = [], command: String, taskCount: Int,
        options: Options, defaultCPUsPerTask: Int, workingDirectory: URL? = nil
    ) {
        self.taskCount = max(taskCount, 1)
        let folder = jobFolder.standardizedFileURL.path
        var lines = ["#!/bin/bash"] + summary.map { "# " + $0 } + [
            "#SBATCH --job-name=\(Self.quoted(name))",
            "#SBATCH --array=0-\(self.taskCount - 1)" + (options.maxParallel.map { "%\($0)" } ?? ""),
            "#SBATCH --output=\(Self.quoted(folder + "/logs/%A_%a.out"))",
            "#SBATCH --cpus-per-task=\(options.cpusPerTask ?? max(defaultCPUsPerTask, 1))",
            "#SBATCH --requeue",
            "#SBATCH --signal=B:TERM@60",
        ]
        if let workingDirectory { lines.append("#SBATCH --chdir=\(Self.quoted(workingDirectory.standardizedFileURL.path))") }
        lines += Self.resourceDirectives(options)
        lines += ["set -u"] + setup + [
            "status_dir=\(Self.quoted(folder + "/tasks"))",
            "mkdir -p \"$status_dir\"",
            "record() {",
            "    local file=\"$status_dir/${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.exit\"",
            "    printf '%s %s\\n' \"$1\" \"$(hostname -s)\" > \"$file.tmp-$$\" && mv -f \"$file.tmp-$$\" \"$file\"",
            "}",
            // scancel, preemption and time-outs send TERM: pass it on, so the command stops cleanly
            // (a trial keeps its checkpoint, an extraction its finished videos).
            "trap 'kill -TERM \"$child\" 2>/dev/null; wait \"$child\"; record \(Self.terminatedStatus); exit \(Self.terminatedStatus)' TERM",
            command + " &",
            "child=$!",
            "wait \"$child\"",
            "status=$?",
            "record \"$status\"",
            "exit \"$status\"",
        ]
        text = lines.joined(separator: "\n") + "\n"
    }

    /// `--partition`, `--time`, `--mem` and the extra arguments, one `#SBATCH` line each.
    static func resourceDirectives(_ options: Options) -> [String] {
        var lines: [String] = []
        if let partition = options.partition { lines.append("#SBATCH --partition=\(Self.quoted(partition))") }
        if let time = options.time { lines.append("#SBATCH --time=\(Self.quoted(time))") }
        if let memory = options.memory { lines.append("#SBATCH --mem=\(Self.quoted(memory))") }
        for argument in options.extraArguments { lines.append("#SBATCH \(argument)") }
        return lines
    }

    /// The trial indices of each array task, in order: `trialsPerTask` each (default 1), more
    /// when that would make more than ``maxArrayTasks`` tasks.
    public static func trialGroups(_ trials: [Int], trialsPerTask: Int?) -> [[Int]] {
        let perTask = max(trialsPerTask ?? 1, (trials.count + maxArrayTasks - 1) / maxArrayTasks, 1)
        return stride(from: 0, to: trials.count, by: perTask).map { Array(trials[$0..<min($0 + perTask, trials.count)]) }
    }

    /// The `sbatch` options the script sets itself, long and short spellings: an extra argument
    /// may not set them, since the last `#SBATCH` line wins and would silently replace the
    /// array, the logs, the `TERM` signal that keeps a checkpoint, or a resource that has its own
    /// option.
    static let ownedOptions: [(long: String, short: String?, instead: String)] = [
        ("array", "a", "the launcher makes the array"), ("output", "o", "logs go to the job folder's logs/"),
        ("error", "e", "logs go to the job folder's logs/"), ("signal", nil, "TERM a minute before the limit keeps the checkpoint"),
        ("chdir", "D", "the launcher sets the working directory"), ("job-name", "J", "the launcher names the job"),
        ("dependency", "d", "the launcher sets the report job's dependency"), ("requeue", nil, "the launcher sets it"),
        ("no-requeue", nil, "a preempted task must be requeued"), ("wrap", nil, "the script is the launcher's"),
        ("partition", "p", "use --partition"), ("time", "t", "use --time"), ("cpus-per-task", "c", "use --cpus-per-task"),
        ("mem", nil, "use --mem"),
    ]

    /// A time limit in `sbatch --time`'s formats, in seconds: `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`,
    /// `D-HH:MM` or `D-HH:MM:SS` (Slurm's sbatch(1), option `--time`); `.max` for `UNLIMITED`,
    /// `INFINITE`, `-1` or `0` ("a time limit of zero requests that no time limit be imposed"),
    /// which set no limit; nil for text in none of these forms.
    static func timeLimitSeconds(_ text: String) -> Int? {
        if ["unlimited", "infinite", "-1", "0"].contains(text.lowercased()) { return .max }
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        let dayParts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard dayParts.count <= 2, let clockText = dayParts.last else { return nil }
        let clock = clockText.split(separator: ":", omittingEmptySubsequences: false).map(number)
        guard clock.count <= 3 else { return nil }
        let fields = clock.compactMap { $0 }
        guard fields.count == clock.count else { return nil }
        if dayParts.count == 2 {
            // D-HH, D-HH:MM, D-HH:MM:SS.
            guard let days = number(dayParts[0]) else { return nil }
            let hms = fields + Array(repeating: 0, count: 3 - fields.count)
            return ((days * 24 + hms[0]) * 60 + hms[1]) * 60 + hms[2]
        }
        switch fields.count {
        case 1: return fields[0] * 60  // MM
        case 2: return fields[0] * 60 + fields[1]  // MM:SS
        default: return (fields[0] * 60 + fields[1]) * 60 + fields[2]  // HH:MM:SS
        }
    }

    /// Why `time` cannot be an array task's limit, or nil when it can: it is in none of
    /// `sbatch --time`'s forms, or it is two minutes or less, which may leave no time to work:
    /// each task gets `TERM` 60 s before its limit (`--signal=B:TERM@60`) and stops, and Slurm
    /// "may send the signal up to 60 seconds earlier than specified" (sbatch(1), `--signal`).
    public static func problem(withTimeLimit time: String) -> String? {
        guard let seconds = timeLimitSeconds(time) else {
            return "expected MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (sbatch --time), or UNLIMITED"
        }
        guard seconds > 120 else {
            return "a task gets TERM one to two minutes before its time limit and stops, so the limit must be more than "
                + "two minutes (found \(seconds) s); for example 30 (minutes) or 2:00:00"
        }
        return nil
    }

    /// The megabytes of a `--mem` value (`8G`, `4000M`, `4000`, `1T`, `500K`; no suffix means
    /// megabytes, sbatch(1)), or nil for `0` (all of a node's memory) and anything else.
    public static func memoryMegabytes(_ text: String) -> Int? {
        let units: [Character: Double] = ["K": 1.0 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024]
        var digits = Substring(text)
        var scale = 1.0
        if let last = text.last?.uppercased().first, let unit = units[last] {
            digits = text.dropLast()
            scale = unit
        }
        guard let value = Int(digits), value > 0 else { return nil }
        return Int((Double(value) * scale).rounded(.up))
    }

    /// Why `memory` cannot be `sbatch --mem`'s value, or nil when it can: a whole number with an
    /// optional unit (`8G`, `4000M`, `4000` megabytes, `1T`, `500K`), or `0` for all of a node's
    /// memory (sbatch(1)).
    public static func problem(withMemory memory: String) -> String? {
        memory == "0" || memoryMegabytes(memory) != nil
            ? nil : "expected a whole number with an optional unit K, M, G or T, such as 8G or 4000M (megabytes without one), "
                + "or 0 for all of a node's memory (sbatch --mem)"
    }

    /// Why `argument` may not be an extra `sbatch` argument, or nil when it may: it sets an
    /// option the script sets itself (``ownedOptions``), or is not one option (`-` first, one line).
    public static func problem(withExtraArgument argument: String) -> String? {
        guard argument.hasPrefix("-"), !argument.contains(where: \.isNewline) else {
            return "expected one sbatch option, such as --account=lab"
        }
        for option in ownedOptions {
            let long = "--" + option.long
            if argument == long || argument.hasPrefix(long + "=") || argument.hasPrefix(long + " ") {
                return "\(long) is set by the launcher (\(option.instead))"
            }
            if let short = option.short, argument.hasPrefix("-" + short), !argument.hasPrefix("--") {
                return "-\(short) (\(long)) is set by the launcher (\(option.instead))"
            }
        }
        return nil
    }

    /// The exit status that task `task` of array `arrayJobID` recorded in
    /// `<jobFolder>/tasks/<arrayJobID>_<task>.exit`, with its node; nil while it has not ended
    /// (or the file is not one the script wrote).
    public static func exitStatus(arrayJobID: String, task: Int, in jobFolder: URL) -> (status: Int, node: String)? {
        let url = jobFolder.appendingPathComponent("tasks/\(arrayJobID)_\(task).exit")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard let first = fields.first, let status = Int(first) else { return nil }
        return (status, fields.count > 1 ? String(fields[1]) : "")
    }

    /// `text` as one shell word: single-quoted unless it is plain.
    public static func quoted(_ text: String) -> String {
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/._-%:=@+,"))
        if !text.isEmpty, text.unicodeScalars.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
