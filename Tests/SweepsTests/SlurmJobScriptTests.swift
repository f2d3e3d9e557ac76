import ActionLabTestSupport
import Foundation
@testable import Sweeps
import Testing

/// The job script `run --launcher slurm` writes: directives, task grouping, quoting.
@Suite struct SlurmJobScriptTests {
    let folder = URL(fileURLWithPath: "/shared/sweeps/basic motions", isDirectory: true)
    let executable = URL(fileURLWithPath: "/opt/actionlab/bin/actionlab")

    /// The script `run --launcher slurm` writes for trials 0, 2 and 5.
    func trialScript(options: SlurmJobScript.Options) -> SlurmJobScript {
        SlurmJobScript(
            name: "actionlab-x", jobFolder: folder.appendingPathComponent("slurm"), summary: ["three trials"],
            setup: ["tasks=(\"0\" \"2\" \"5\")"],
            command: "\(SlurmJobScript.quoted(executable.path)) trial \(SlurmJobScript.quoted(folder.path)) ${tasks[$SLURM_ARRAY_TASK_ID]}",
            taskCount: 3, options: options, defaultCPUsPerTask: 2)
    }

    @Test func directivesComeFirstAndTheTaskRunsInTheBackground() {
        let options = SlurmJobScript.Options(
            partition: "gpu", time: "02:00:00", memory: "8G", maxParallel: 4, extraArguments: ["--account=lab"])
        let script = trialScript(options: options)
        #expect(script.taskCount == 3)
        let lines = script.text.split(separator: "\n").map(String.init)
        for directive in ["#SBATCH --array=0-2%4", "#SBATCH --partition=gpu", "#SBATCH --time=02:00:00", "#SBATCH --mem=8G",
                          "#SBATCH --cpus-per-task=2", "#SBATCH --account=lab", "#SBATCH --requeue", "#SBATCH --signal=B:TERM@60",
                          "#SBATCH --output='/shared/sweeps/basic motions/slurm/logs/%A_%a.out'"] {
            #expect(lines.contains(directive), "\(directive) missing from:\n\(script.text)")
        }
        #expect(lines.contains("# three trials"))
        #expect(lines.contains("tasks=(\"0\" \"2\" \"5\")"))
        #expect(lines.contains("/opt/actionlab/bin/actionlab trial '/shared/sweeps/basic motions' ${tasks[$SLURM_ARRAY_TASK_ID]} &"))
        #expect(lines.contains("status_dir='/shared/sweeps/basic motions/slurm/tasks'"))
        // Every #SBATCH line comes before the first command, as sbatch requires.
        let lastDirective = lines.lastIndex { $0.hasPrefix("#SBATCH") } ?? 0
        let firstCommand = lines.firstIndex { !$0.hasPrefix("#") } ?? lines.count
        #expect(lastDirective < firstCommand)
        #expect(trialScript(options: .init(cpusPerTask: 6)).text.contains("#SBATCH --cpus-per-task=6\n"))
        #expect(trialScript(options: .init()).text.contains("#SBATCH --array=0-2\n"))
    }

    /// The script runs under bash as a task would and records its command's exit status. (The
    /// `TERM` trap's 143 is checked on the cluster, by `SlurmLauncherTests`' `scancel`: a test
    /// runner's children may start with `TERM` ignored, which bash cannot trap.)
    @Test func theScriptRecordsTheExitStatusOfItsCommand() throws {
        let directory = try TemporaryDirectory()
        let script = SlurmJobScript(
            name: "t", jobFolder: directory.url, summary: [], command: "exit_three() { return 3; }; exit_three", taskCount: 1,
            options: .init(), defaultCPUsPerTask: 1)
        let file = directory.file("job.sh")
        try script.text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [file.path]
        process.environment = ["SLURM_ARRAY_JOB_ID": "77", "SLURM_ARRAY_TASK_ID": "0", "PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        let recorded = try #require(SlurmJobScript.exitStatus(arrayJobID: "77", task: 0, in: directory.url))
        #expect(recorded.status == 3 && !recorded.node.isEmpty)
        #expect(SlurmJobScript.exitStatus(arrayJobID: "77", task: 1, in: directory.url) == nil)
    }

    @Test func trialsPerTaskAndTheArraySizeLimitGroupTrials() {
        #expect(SlurmJobScript.trialGroups([0, 2, 5], trialsPerTask: nil) == [[0], [2], [5]])
        #expect(SlurmJobScript.trialGroups(Array(0..<7), trialsPerTask: 3) == [[0, 1, 2], [3, 4, 5], [6]])
        let large = SlurmJobScript.trialGroups(Array(0..<2500), trialsPerTask: nil)
        #expect(large.count <= SlurmJobScript.maxArrayTasks)
        #expect(large.flatMap { $0 } == Array(0..<2500))
    }

    /// The last `#SBATCH` line wins, so an extra argument may not replace what the script sets.
    @Test func extraArgumentsMayNotSetWhatTheScriptSets() {
        for allowed in ["--account=lab", "--qos=long", "-A lab", "--constraint=avx512", "--mem-per-cpu=2G", "--exclusive"] {
            #expect(SlurmJobScript.problem(withExtraArgument: allowed) == nil, "\(allowed)")
        }
        for (owned, message) in [
            ("--array=0-3", "--array is set by the launcher"), ("-p debug", "-p (--partition) is set by the launcher (use --partition)"),
            ("--signal=KILL@10", "--signal is set by the launcher"), ("--output=/tmp/x", "--output is set by the launcher"),
            ("-o/tmp/x", "-o (--output)"), ("--dependency=afterok:1", "--dependency"), ("--time", "use --time"),
            ("account=lab", "expected one sbatch option"), ("--a\nb", "expected one sbatch option"),
        ] {
            let problem = SlurmJobScript.problem(withExtraArgument: owned)
            #expect(problem?.contains(message) == true, "\(owned): \(problem ?? "accepted")")
        }
    }

    /// sbatch(1)'s `--time` forms, and the two minutes the `TERM` signal may take from each task.
    @Test func timeLimitsAreReadInSbatchFormsAndMustExceedAMinute() {
        for (text, seconds) in [
            ("30", 1_800), ("3", 180), ("2:01", 121), ("01:30:00", 5_400), ("1-0", 86_400), ("1-2", 93_600), ("1-2:30", 95_400),
            ("0-0:2:5", 125), ("UNLIMITED", Int.max), ("infinite", Int.max), ("-1", Int.max), ("0", Int.max),
        ] {
            #expect(SlurmJobScript.timeLimitSeconds(text) == seconds, "\(text)")
            #expect(SlurmJobScript.problem(withTimeLimit: text) == nil, "\(text)")
        }
        for text in ["", "abc", "1h", "1:2:3:4", "1-2-3", "-5", "1.5", "1:", ":30", "1-", "٣٠"] {
            #expect(SlurmJobScript.timeLimitSeconds(text) == nil, "\(text)")
            #expect(SlurmJobScript.problem(withTimeLimit: text)?.contains("expected MM") == true, "\(text)")
        }
        // Slurm may send the TERM up to 60 s before the --signal time, itself 60 s before the limit.
        for text in ["1", "2", "0:59", "1:00", "2:00", "0-0:1", "0-0:2"] {
            #expect(SlurmJobScript.problem(withTimeLimit: text)?.contains("more than two minutes") == true, "\(text)")
        }
    }

    @Test func wordsAreQuotedForTheShell() {
        #expect(SlurmJobScript.quoted("/plain/path_1.json5") == "/plain/path_1.json5")
        #expect(SlurmJobScript.quoted("a b") == "'a b'")
        #expect(SlurmJobScript.quoted("it's") == "'it'\\''s'")
        #expect(SlurmJobScript.quoted("") == "''")
        #expect(SlurmJobScript.quoted("$(rm -rf /)") == "'$(rm -rf /)'")
    }
}

/// What `status` makes of `sacct`: the accounting states of ended tasks beside their recorded
/// exit status. The local cluster keeps no accounting, so the parsing is checked on `sacct`'s
/// documented `--parsable2` output.
@Suite struct SlurmAccountingTests {
    @Test func sacctLinesBecomeTasksAndPendingRangesAreSkipped() {
        let output = """
            12_0|COMPLETED|0:0|node1
            12_1|CANCELLED by 0|0:15|node2
            12_2|OUT_OF_MEMORY|0:125|node2
            12_[3-9]|PENDING|0:0|None assigned
            13|COMPLETED|0:0|node1
            """
        let tasks = SlurmClient.accountedTasks(output)
        #expect(tasks.count == 3)
        #expect(tasks["12_0"] == SlurmClient.AccountedTask(state: "COMPLETED", exitCode: "0:0", node: "node1"))
        #expect(tasks["12_1"]?.state == "CANCELLED")
        #expect(tasks["12_2"]?.state == "OUT_OF_MEMORY")
    }

    @Test func anEndedTaskShowsTheAccountingStateAndTheRecordedExit() {
        let killed = SlurmClient.AccountedTask(state: "OUT_OF_MEMORY", exitCode: "0:125", node: "node2")
        #expect(SweepStatus.endedState(recorded: nil, accounted: killed) == "OUT_OF_MEMORY, exit code 0:125 on node2")
        #expect(SweepStatus.endedState(recorded: (143, "node4"), accounted: .init(state: "TIMEOUT", exitCode: "0:15", node: "node4"))
            == "TIMEOUT, exit 143 on node4")
        #expect(SweepStatus.endedState(recorded: (1, "vm"), accounted: nil) == "exit 1 on vm")
        #expect(SweepStatus.endedState(recorded: nil, accounted: nil) == "ended without an exit status")
    }

    /// `sinfo --Node` lines give the largest node of the partitions asked for, or of the default
    /// (starred) one; the launcher warns of a task larger than it (trial 5: `--cpus-per-task 64`
    /// pended for ever without a word).
    @Test func theLargestNodeOfAPartitionBoundsWhatATaskMayAsk() throws {
        let lines = """
            debug*|2|24000
            debug*|4|16000
            gpu|64|512000
            gpu|32|256000
            """
        #expect(SlurmClient.largestNode(sinfo: lines, partitions: nil).map { [$0.cpus, $0.memoryMB] } == [4, 24000])
        #expect(SlurmClient.largestNode(sinfo: lines, partitions: "gpu").map { [$0.cpus, $0.memoryMB] } == [64, 512000])
        #expect(SlurmClient.largestNode(sinfo: lines, partitions: "debug,gpu").map { [$0.cpus, $0.memoryMB] } == [64, 512000])
        #expect(SlurmClient.largestNode(sinfo: lines, partitions: "nosuch") == nil)

        #expect(SlurmJobScript.memoryMegabytes("4000") == 4000)
        #expect(SlurmJobScript.memoryMegabytes("4000M") == 4000)
        #expect(SlurmJobScript.memoryMegabytes("8G") == 8192)
        #expect(SlurmJobScript.memoryMegabytes("1t") == 1_048_576)
        #expect(SlurmJobScript.memoryMegabytes("512K") == 1)
        #expect(SlurmJobScript.memoryMegabytes("0") == nil)  // all of a node's memory
        #expect(SlurmJobScript.memoryMegabytes("lots") == nil)
        #expect(SlurmJobScript.problem(withMemory: "0") == nil && SlurmJobScript.problem(withMemory: "8G") == nil)
        #expect(SlurmJobScript.problem(withMemory: "1.5G")?.contains("such as 8G or 4000M") == true)
        #expect(SlurmJobScript.problem(withMemory: "-5G") != nil)

        // Options read back from a record are checked as the command line is.
        #expect(SlurmJobScript.Options(partition: "debug", time: "30", cpusPerTask: 2, memory: "8G", extraArguments: ["--qos=long"])
            .problems.isEmpty)
        let bad = SlurmJobScript.Options(
            partition: "a\nb", time: "1", cpusPerTask: -4, memory: "lots", maxParallel: 0,
            extraArguments: ["--account=lab", "--comment=x\necho hi", "--array=1"])
        #expect(bad.problems.count == 7, "\(bad.problems)")
        #expect(bad.problems.contains { $0.hasPrefix("partition ") && $0.contains("one line") }, "\(bad.problems)")
        #expect(bad.problems.contains { $0.hasPrefix("time 1: ") }, "\(bad.problems)")
        #expect(bad.problems.contains { $0.hasPrefix("memory lots: ") }, "\(bad.problems)")
        #expect(bad.problems.contains("cpusPerTask -4: expected a whole number of at least 1"), "\(bad.problems)")
        #expect(bad.problems.contains("maxParallel 0: expected a whole number of at least 1"), "\(bad.problems)")
        #expect(bad.problems.contains { $0.hasPrefix("extraArguments[1] ") }, "\(bad.problems)")
        #expect(bad.problems.contains { $0.hasPrefix("extraArguments[2] ") && $0.contains("--array") }, "\(bad.problems)")

        let scratch = try TemporaryDirectory(prefix: "sinfo")
        let fake = scratch.url.appendingPathComponent("sinfo")
        try Data("#!/bin/sh\nprintf 'debug*|2|24000\\n'\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let client = SlurmClient(searchPath: scratch.url.path)
        let fits = SlurmLauncher(options: .init(memory: "8G"), executable: URL(fileURLWithPath: "/bin/true"), client: client)
        #expect(fits.resourceWarnings(cpusPerTask: 2).isEmpty)
        let large = SlurmLauncher(options: .init(memory: "64G"), executable: URL(fileURLWithPath: "/bin/true"), client: client)
        let warnings = large.resourceWarnings(cpusPerTask: 64)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.contains("each task asks 64 CPUs (--cpus-per-task), and no node of the default partition has more than 2") == true,
                "\(warnings)")
        #expect(warnings.last?.contains("asks 64G of memory (--mem), and no node of the default partition has more than 24000 MB") == true,
                "\(warnings)")
        // Without sinfo, nothing is said.
        let blind = SlurmLauncher(options: .init(), executable: URL(fileURLWithPath: "/bin/true"),
                                  client: SlurmClient(searchPath: scratch.url.appendingPathComponent("none").path))
        #expect(blind.resourceWarnings(cpusPerTask: 64).isEmpty)
    }
}
