import Dataset
import Foundation
import HDF5
import NeuralNetwork
import Video

/// Where a run's numbers came from: software versions, the machine, the seed and the data's
/// content hashes. Written as `provenance.json` beside every run.
public struct Provenance: Codable, Sendable {
    /// ActionLab's version.
    public var actionlabVersion: String
    /// `git rev-parse HEAD` of the ActionLab checkout the binary was built from, with `-dirty`
    /// when it had uncommitted changes, or `unknown` outside a checkout.
    public var gitCommit: String
    /// The Swift compiler the binary was built with.
    public var swiftVersion: String
    /// HDF5 library version.
    public var hdf5Version: String
    /// OpenBLAS build configuration and the kernel it runs.
    public var openblas: OpenBLASInfo
    /// The threads the run split each numeric operation between (``ComputeThreads/count``:
    /// `training.threads`); nil in files written before it was recorded.
    public var computeThreads: Int?
    /// How those threads waited between operations, `active` or `passive`
    /// (``ComputeThreads/WaitPolicy``; the results do not depend on it); nil in files written
    /// before it was recorded.
    public var computeWaitPolicy: String?
    /// FFmpeg release and library versions.
    public var ffmpeg: [String: String]
    /// Host name, CPU model, logical cores (the machine's online processors), available
    /// processors (those this process may run on), operating system.
    public var host: [String: String]
    /// The run's seed.
    public var seed: Int
    /// Every data source: path, SHA-256 of its bytes, feature-cache key.
    public var data: [DataSourceRecord]
    /// Source files that failed and were skipped (`dataset.onError: "skip"`), one message each;
    /// nil (and absent from the JSON) when none was.
    public var skipped: [String]?
    /// How each split was made, one sentence per split (``LoadedDataset/splitMethods``); nil in
    /// files written before it was recorded.
    public var splitMethods: [String]?
    /// The Slurm job that ran the trial: `job_id`, `array_job_id`, `array_task_id`, `node`
    /// (`SLURM_JOB_ID`, `SLURM_ARRAY_JOB_ID`, `SLURM_ARRAY_TASK_ID`, `SLURMD_NODENAME`, those
    /// that are set); nil (and absent from the JSON) outside Slurm.
    public var slurm: [String: String]?

    /// OpenBLAS facts.
    public struct OpenBLASInfo: Codable, Sendable {
        /// OpenBLAS's build configuration (``BLAS/configuration``).
        public var configuration: String
        /// The kernel family it runs (``BLAS/coreName``), e.g. `Cooperlake`.
        public var coreName: String
        /// How that kernel was chosen (``BLASKernelSelection/description(environment:loadedCoreName:)``),
        /// e.g. `auto (cpuinfo: avx512_bf16) -> Cooperlake; OpenBLAS's own detection chose Haswell`.
        public var kernelSelection: String
        /// Threads OpenBLAS uses for one call (``BLAS/openBLASThreadCount``): 1, since
        /// ActionLab splits work between threads itself (see ``Provenance/computeThreads``).
        public var threads: Int

        /// The facts of this process.
        public static var current: OpenBLASInfo {
            OpenBLASInfo(
                configuration: BLAS.configuration, coreName: BLAS.coreName,
                kernelSelection: BLASKernelSelection.description(), threads: BLAS.openBLASThreadCount)
        }

        enum CodingKeys: String, CodingKey {
            case configuration, coreName = "core_name", kernelSelection = "kernel_selection", threads
        }
    }

    /// ActionLab's version string.
    public static let actionlabVersion = "0.1.0"

    /// The file's name in a run's or trial's folder.
    public static let fileName = "provenance.json"

    /// Reads the ``fileName`` in `folder`.
    ///
    /// - Throws: ``ReportError/unreadableReport(path:reason:)`` naming the file when it is
    ///   missing or unreadable, or when it is not provenance (the reason gives the line, column
    ///   and JSON path, ``JSONDocument``).
    public static func read(inFolder folder: URL) throws -> Provenance {
        try ReportFile.decodeJSON(Provenance.self, from: folder.appendingPathComponent(fileName))
    }

    /// The Slurm array task that ran it: ``slurm``'s `array_job_id` and `array_task_id`, or nil
    /// outside a job array (and for a task id that is not a whole number).
    public var slurmArrayTask: (jobID: String, taskID: Int)? {
        guard let job = slurm?["array_job_id"], let task = slurm?["array_task_id"].flatMap({ Int($0) }) else { return nil }
        return (job, task)
    }

    /// Facts about this process and machine, with the given seed and data records.
    public static func current(seed: Int, data: [DataSourceRecord], skipped: [String] = [], splitMethods: [String] = []) -> Provenance {
        Provenance(
            actionlabVersion: actionlabVersion, gitCommit: gitCommit, swiftVersion: swiftVersion,
            hdf5Version: HDF5Library.version,
            openblas: .current, computeThreads: ComputeThreads.count, computeWaitPolicy: ComputeThreads.waitPolicy.rawValue,
            ffmpeg: FFmpegLibrary.libraryVersions.merging(["release": FFmpegLibrary.versionInfo]) { $1 },
            host: hostFacts, seed: seed, data: data, skipped: skipped.isEmpty ? nil : skipped,
            splitMethods: splitMethods.isEmpty ? nil : splitMethods, slurm: slurmFacts)
    }

    /// The Slurm job of this process (see ``slurm``), or nil outside Slurm.
    public static let slurmFacts: [String: String]? = {
        let environment = ProcessInfo.processInfo.environment
        let names = ["job_id": "SLURM_JOB_ID", "array_job_id": "SLURM_ARRAY_JOB_ID", "array_task_id": "SLURM_ARRAY_TASK_ID",
                     "node": "SLURMD_NODENAME"]
        let facts = names.compactMapValues { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
        return facts.isEmpty ? nil : facts
    }()

    static var swiftVersion: String {
        #if compiler(>=6.3)
        return "6.3 or later"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    /// Environment variable through which a sweep hands its git commit to worker processes, so
    /// that each trial does not spend two `git` processes (tens of milliseconds) finding it again.
    /// Looks up the facts that stay the same for the whole process (``gitCommit``, which runs
    /// `git` twice unless inherited, and ``hostFacts``), so that a sweep pays for them once at
    /// start-up rather than inside its first trial's time.
    public static func prepareProcessFacts() {
        _ = gitCommit
        _ = hostFacts
    }

    public static let gitCommitEnvironmentKey = "ACTIONLAB_GIT_COMMIT"

    /// The commit the running executable was built from, as its build recorded it (the
    /// `actionlab` executable sets it from its `BuildInfo` module first thing, before anything
    /// reads ``gitCommit``); nil in a process that did not set it, such as a test runner.
    nonisolated(unsafe) public static var buildGitCommit: String?

    /// The commit of the code running: the value a parent process passed in
    /// ``gitCommitEnvironmentKey``, else ``buildGitCommit`` (recorded when the executable was
    /// built), else, in a process that has none (a test runner, a library user), the commit of
    /// the checkout this source file was compiled from, found at run time through `#filePath`
    /// (`git rev-parse HEAD`, `-dirty` with uncommitted changes), or `unknown`.
    public static let gitCommit: String = {
        if let inherited = ProcessInfo.processInfo.environment[gitCommitEnvironmentKey], !inherited.isEmpty {
            return inherited
        }
        if let buildGitCommit { return buildGitCommit }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        guard let head = run("/usr/bin/git", ["-C", checkout.path, "rev-parse", "HEAD"]), !head.isEmpty else {
            return "unknown"
        }
        let status = run("/usr/bin/git", ["-C", checkout.path, "status", "--porcelain", "--untracked-files=no"]) ?? ""
        return status.isEmpty ? head : head + "-dirty"
    }()

    /// Host name, logical cores (the machine's), the processors this process may run on
    /// (``ComputeThreads/availableProcessors()``: affinity mask and cgroup quota), the bytes of
    /// memory it may use (``ProcessMemory/availableBytes()``: the machine's, or its cgroup's
    /// limit), operating system and CPU model (`/proc/cpuinfo`'s `model name`).
    public static let hostFacts: [String: String] = {
        var facts = [
            "hostname": ProcessInfo.processInfo.hostName,
            "logical_cores": "\(ComputeThreads.onlineProcessors)",
            "available_processors": "\(ComputeThreads.availableProcessors())",
            "available_memory_bytes": "\(ProcessMemory.availableBytes())",
            "os": ProcessInfo.processInfo.operatingSystemVersionString,
        ]
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            facts["cpu"] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return facts
    }()

    /// Standard output of a command, trimmed, or nil if it cannot run or fails.
    private static func run(_ executable: String, _ arguments: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    enum CodingKeys: String, CodingKey {
        case actionlabVersion = "actionlab_version", gitCommit = "git_commit", swiftVersion = "swift_version"
        case hdf5Version = "hdf5_version", openblas, computeThreads = "compute_threads", computeWaitPolicy = "compute_wait_policy"
        case ffmpeg, host, seed, data, skipped
        case splitMethods = "split_methods", slurm
    }
}
