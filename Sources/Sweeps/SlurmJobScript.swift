import Foundation

/// The batch script of one Slurm submission of a sweep: a job array whose task `k` runs
/// `actionlab trial SWEEP_DIR i j …` for the trial indices of ``tasks``[k].
///
/// The script is written into the sweep folder (`slurm/submission-<n>.sbatch`) before it is
/// submitted, so that what runs on the cluster can be read. Each task writes its exit status to
/// `slurm/tasks/<array job id>_<task id>.exit` (by temporary file and rename) when it ends, also
/// on `scancel` and time-outs (a `TERM` trap), because a cluster without accounting has no `sacct`
/// to ask afterwards.
///
/// Directives follow `sbatch(1)` of Slurm 22.05: `--array=0-<n−1>%<throttle>`, output
/// `%A_%a` (array job id, task id).
public struct SlurmJobScript: Equatable, Sendable {
    /// Resources and scheduling of every array task.
    public struct Options: Equatable, Sendable, Codable {
        /// `--partition`; nil: the cluster's default partition.
        public var partition: String?
        /// `--time`, in Slurm's formats (`MM`, `HH:MM:SS`, `D-HH`); nil: the partition's default.
        public var time: String?
        /// `--cpus-per-task`; nil: the configuration's `training.threads`.
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

    /// Slurm's default `MaxArraySize` is 1001 (task ids 0 to 1000); sweeps with more trials put
    /// several in a task.
    public static let maxArrayTasks = 1000

    /// The trial indices of each array task, in order.
    public let tasks: [[Int]]
    /// The whole script.
    public let text: String

    /// - Parameters:
    ///   - trials: The trial indices to run (unfinished ones), each once.
    ///   - sweepFolder: The sweep folder, on a file system every node sees.
    ///   - executable: The `actionlab` executable the tasks run, by absolute path.
    ///   - name: The job name (`--job-name`).
    ///   - options: Resources and scheduling.
    ///   - threads: The trials' `training.threads`, the default `--cpus-per-task`.
    public init(trials: [Int], sweepFolder: URL, executable: URL, name: String, options: Options, threads: Int) {
        let perTask = max(options.trialsPerTask ?? 1, (trials.count + Self.maxArrayTasks - 1) / Self.maxArrayTasks, 1)
        tasks = stride(from: 0, to: trials.count, by: perTask).map { Array(trials[$0..<min($0 + perTask, trials.count)]) }
        let folder = sweepFolder.standardizedFileURL.path
        var lines = [
            "#!/bin/bash",
            "# Written by actionlab run --launcher slurm: \(trials.count) trial\(trials.count == 1 ? "" : "s") of",
            "# \(folder) in \(tasks.count) array task\(tasks.count == 1 ? "" : "s").",
            "#SBATCH --job-name=\(Self.quoted(name))",
            "#SBATCH --array=0-\(max(tasks.count - 1, 0))" + (options.maxParallel.map { "%\($0)" } ?? ""),
            "#SBATCH --output=\(Self.quoted(folder + "/slurm/logs/%A_%a.out"))",
            "#SBATCH --cpus-per-task=\(options.cpusPerTask ?? max(threads, 1))",
            "#SBATCH --requeue",
            "#SBATCH --signal=B:TERM@60",
        ]
        if let partition = options.partition { lines.append("#SBATCH --partition=\(Self.quoted(partition))") }
        if let time = options.time { lines.append("#SBATCH --time=\(Self.quoted(time))") }
        if let memory = options.memory { lines.append("#SBATCH --mem=\(Self.quoted(memory))") }
        for argument in options.extraArguments { lines.append("#SBATCH \(argument)") }
        lines += [
            "set -u",
            "tasks=(" + tasks.map { "\"\($0.map(String.init).joined(separator: " "))\"" }.joined(separator: " ") + ")",
            "status_dir=\(Self.quoted(folder + "/slurm/tasks"))",
            "mkdir -p \"$status_dir\"",
            "record() {",
            "    local file=\"$status_dir/${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.exit\"",
            "    printf '%s %s\\n' \"$1\" \"$(hostname -s)\" > \"$file.tmp-$$\" && mv -f \"$file.tmp-$$\" \"$file\"",
            "}",
            // scancel and time-outs send TERM: pass it on, so the trial stops and keeps its checkpoint.
            "trap 'kill -TERM \"$child\" 2>/dev/null; wait \"$child\"; record 143; exit 143' TERM",
            "\(Self.quoted(executable.standardizedFileURL.path)) trial \(Self.quoted(folder)) ${tasks[$SLURM_ARRAY_TASK_ID]} &",
            "child=$!",
            "wait \"$child\"",
            "status=$?",
            "record \"$status\"",
            "exit \"$status\"",
        ]
        text = lines.joined(separator: "\n") + "\n"
    }

    /// `text` as one shell word: single-quoted unless it is plain.
    static func quoted(_ text: String) -> String {
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/._-%:=@+,"))
        if !text.isEmpty, text.unicodeScalars.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
