import Foundation
import Synchronization

/// Slurm's command-line tools (`sbatch`, `squeue`, `sacct`), run as subprocesses: what the
/// Slurm launcher submits and asks. Every failure names the command and gives its standard error.
public struct SlurmClient: Sendable {
    /// What `squeue` says of one array task (or job) that is still known to the controller.
    public struct QueuedTask: Equatable, Sendable {
        /// The array job id (`%F`), or the job id of a job that is not an array.
        public var arrayJobID: String
        /// The task id (`%K`); nil for a job that is not an array.
        public var taskID: Int?
        /// Slurm's state (`PENDING`, `RUNNING`, `COMPLETING`, `REQUEUED`, …).
        public var state: String
        /// The node it runs on; empty while pending.
        public var node: String
        /// Why it waits (`%r`): `Resources`, `Priority`, `PartitionConfig`, …; `None` once running.
        public var reason: String

        public init(arrayJobID: String, taskID: Int?, state: String, node: String, reason: String = "") {
            self.arrayJobID = arrayJobID
            self.taskID = taskID
            self.state = state
            self.node = node
            self.reason = reason
        }
    }

    /// Errors of Slurm's tools.
    public enum SlurmError: Error, CustomStringConvertible, Equatable {
        /// The tool is not on the `PATH`.
        case notInstalled(command: String)
        /// The tool ran and failed (the controller does not answer, a directive is invalid).
        case failed(command: String, status: Int32, standardError: String)
        /// The tool's output is not what Slurm 22.05 prints.
        case unexpectedOutput(command: String, output: String)

        public var description: String {
            switch self {
            case let .notInstalled(command):
                return "\(command): not found: Slurm's tools are not installed here (Debian: apt-get install slurm-client; "
                    + "on this machine as root, scripts/slurm-local start runs a one-node cluster); --launcher local runs the work here"
            case let .failed(command, status, standardError):
                return "\(command) failed with exit status \(status): "
                    + standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            case let .unexpectedOutput(command, output):
                return "\(command) printed something unexpected: \(output.prefix(200))"
            }
        }
    }

    /// The folders searched for Slurm's tools, `:`-separated; nil for the process's `PATH`.
    public let searchPath: String?

    /// Creates a client.
    /// - Parameter searchPath: Where to look for `sbatch`, `squeue`, `sacct` and `scancel`,
    ///   `:`-separated; by default the process's `PATH`.
    public init(searchPath: String? = nil) {
        self.searchPath = searchPath
    }

    /// Submits `script` (a file) with `sbatch --parsable`, adding `arguments` before it.
    /// - Returns: The job id.
    /// - Throws: ``SlurmError``.
    public func submit(_ script: URL, arguments: [String] = []) throws -> String {
        let output = try run("sbatch", ["--parsable"] + arguments + [script.path])
        // --parsable prints "jobid" or "jobid;cluster".
        let id = output.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw SlurmError.unexpectedOutput(command: "sbatch", output: output)
        }
        return id
    }

    /// The tasks of `jobIDs` that the controller still knows (pending, running, completing).
    ///
    /// The controller forgets a job `MinJobAge` (300 s by default) after it ends; `squeue`
    /// then fails for that id alone ("Invalid job id specified") but not within a list, so such
    /// an id counts as a job with no queued task.
    /// - Throws: ``SlurmError``.
    public func queued(jobIDs: [String]) throws -> [QueuedTask] {
        guard !jobIDs.isEmpty else { return [] }
        let output: String
        do {
            output = try run("squeue", ["--noheader", "--array", "--jobs=" + jobIDs.joined(separator: ","), "--format=%F|%K|%T|%N|%r"])
        } catch let SlurmError.failed(_, _, standardError) where standardError.contains("Invalid job id specified") {
            guard jobIDs.count > 1 else { return [] }
            return try jobIDs.flatMap { try queued(jobIDs: [$0]) }
        }
        return try output.split(separator: "\n").map { line in
            let fields = line.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { throw SlurmError.unexpectedOutput(command: "squeue", output: String(line)) }
            return QueuedTask(arrayJobID: fields[0], taskID: Int(fields[1]), state: fields[2], node: fields[3], reason: fields[4])
        }
    }

    /// What the accounting database says of one array task that has ended.
    public struct AccountedTask: Equatable, Sendable {
        /// `COMPLETED`, `FAILED`, `CANCELLED`, `TIMEOUT`, `OUT_OF_MEMORY`, `PREEMPTED`, `NODE_FAIL`, …
        /// (`CANCELLED by <uid>` shortened to `CANCELLED`).
        public var state: String
        /// `ExitCode`: `<exit status>:<signal>`, such as `0:9` for a task killed by `SIGKILL`.
        public var exitCode: String
        /// The node it ran on.
        public var node: String
    }

    /// The array tasks of `jobIDs` in Slurm's accounting (`sacct`), by `<array job id>_<task id>`;
    /// nil when the cluster keeps no accounting (`sacct` fails: "accounting storage is disabled")
    /// or has no `sacct`. It alone knows why a task that recorded no exit status ended (killed by
    /// the out-of-memory killer, a node failure).
    public func accounting(jobIDs: [String]) -> [String: AccountedTask]? {
        guard !jobIDs.isEmpty else { return [:] }
        guard let output = try? run("sacct", [
            "--noheader", "--parsable2", "--allocations", "--jobs=" + jobIDs.joined(separator: ","),
            "--format=JobID,State,ExitCode,NodeList",
        ]) else { return nil }
        return Self.accountedTasks(output)
    }

    /// The most CPUs and memory (MB) any one node of `partitions` has (`sinfo --Node`), or of the
    /// cluster's default partition when `partitions` is nil; nil when `sinfo` is missing or fails,
    /// or lists no node of them. A job asking more than that per task pends for ever
    /// (`PartitionConfig`) on clusters that do not refuse it at submission.
    /// - Parameter partitions: `--partition`'s value: one name or several, comma-separated.
    public func largestNode(partitions: String?) -> (cpus: Int, memoryMB: Int)? {
        guard let output = try? run("sinfo", ["--Node", "--noheader", "--format=%P|%c|%m"]) else { return nil }
        return Self.largestNode(sinfo: output, partitions: partitions)
    }

    /// Parses `sinfo --Node --noheader --format=%P|%c|%m` (`debug*|2|24000`, the default
    /// partition starred; one line per node and partition) for ``largestNode(partitions:)``.
    static func largestNode(sinfo output: String, partitions: String?) -> (cpus: Int, memoryMB: Int)? {
        let wanted = partitions.map { Set($0.split(separator: ",").map(String.init)) }
        var largest: (cpus: Int, memoryMB: Int)?
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 3, let cpus = Int(fields[1]), let memory = Int(fields[2]) else { continue }
            let isDefault = fields[0].hasSuffix("*")
            let name = isDefault ? String(fields[0].dropLast()) : fields[0]
            guard wanted.map({ $0.contains(name) }) ?? isDefault else { continue }
            largest = (max(largest?.cpus ?? 0, cpus), max(largest?.memoryMB ?? 0, memory))
        }
        return largest
    }

    /// Parses `sacct --parsable2 --format=JobID,State,ExitCode,NodeList` output: one line per
    /// job, `12_3|TIMEOUT|0:15|node4`. Pending ranges (`12_[4-9]`) and lines of other shapes are
    /// skipped.
    static func accountedTasks(_ output: String) -> [String: AccountedTask] {
        var tasks: [String: AccountedTask] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let underscore = fields[0].firstIndex(of: "_"),
                  Int(fields[0][fields[0].index(after: underscore)...]) != nil else { continue }
            let state = fields[1].split(separator: " ").first.map(String.init) ?? fields[1]
            tasks[fields[0]] = AccountedTask(state: state, exitCode: fields[2], node: fields[3])
        }
        return tasks
    }

    /// Runs `command` with `arguments`; returns its standard output.
    func run(_ command: String, _ arguments: [String]) throws -> String {
        guard let executable = Self.find(command, in: searchPath) else { throw SlurmError.notInstalled(command: command) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Slurm's tools print little: standard error goes to a pipe read after standard output
        // on another thread, so that neither pipe can fill and block the tool.
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do { try process.run() } catch { throw SlurmError.failed(command: command, status: -1, standardError: "\(error)") }
        let errorText = Mutex(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            throw SlurmError.failed(
                command: ([command] + arguments).joined(separator: " "), status: process.terminationStatus,
                standardError: String(decoding: errorText.withLock { $0 }, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    /// `command` on the `PATH`, or nil.
    static func find(_ command: String, in searchPath: String? = nil) -> URL? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(command)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
