import ActionLabTestSupport
import Foundation
import Testing

/// Sweeps through the real executable: parallel workers and kill -9 give the same leaderboard
/// as one uninterrupted worker.
@Suite(.serialized) struct SweepCommandTests {
    /// A 2 × 2 grid × 2 seeds = 8 short trials on the real BasicMotions recordings, the manifest
    /// at `experiments/sweep.json5`; the other suites change its name, epochs, grid or place.
    static func makeProject(
        name: String = "tiny-sweep", epochs: Int = 4, grid: String = #""windows.duration": [5, 10], augmentation: ["none", "full"]"#,
        manifest: String = "experiments/sweep.json5", prefix: String = "actionlab-sweep"
    ) throws -> TemporaryDirectory {
        let project = try TemporaryDirectory(prefix: prefix)
        let train = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let test = try TestData.file("uea/BasicMotions/BasicMotions_TEST.ts")
        _ = try writeFixture("""
            {
              name: "\(name)",
              dataset: {
                sources: [{ format: "uea", path: "\(train.path)" }],
                test: { sources: [{ format: "uea", path: "\(test.path)" }] },
              },
              features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "cache" },
              windows: { duration: 5 },
              model: { channels: [16, 16], kernelSizes: [5, 3] },
              training: { epochs: \(epochs), seeds: [1, 2] },
              sweep: { grid: { \(grid) } },
            }
            """, named: manifest, in: project.url)
        return project
    }

    /// The leaderboard without its last column (training seconds, which depends on the machine).
    static func leaderboardWithoutTimes(_ folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("leaderboard.csv"), encoding: .utf8)
            .split(separator: "\n").map { line in line.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") }
    }

    /// `makeProject` with `experiments/long.json5`: 300 epochs per trial (about a second each),
    /// checkpoints every 20, so that a run can be killed mid-trial.
    static func makeLongProject() throws -> TemporaryDirectory {
        let project = try makeProject()
        let manifest = try String(contentsOf: project.file("experiments/sweep.json5"), encoding: .utf8)
            .replacingOccurrences(of: "epochs: 4,", with: "epochs: 300, checkpointEvery: 20,")
        try manifest.write(to: project.file("experiments/long.json5"), atomically: true, encoding: .utf8)
        return project
    }

    /// The process ids of the workers training in a sweep folder, from their partial folders
    /// `trials/<trial id>.partial-<pid>`.
    static func workerPIDs(_ folder: URL) -> [pid_t] {
        ((try? trialIDs(folder)) ?? []).compactMap { name in
            name.range(of: ".partial-").flatMap { pid_t(name[$0.upperBound...]) }
        }
    }

    static func trialIDs(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("trials").path).sorted()
    }

    /// The `compute_wait_policy` of every trial's `provenance.json` in a sweep folder.
    static func waitPolicies(_ folder: URL) throws -> [String] {
        try trialIDs(folder).map { id in
            let data = try Data(contentsOf: folder.appendingPathComponent("trials/\(id)/provenance.json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["compute_wait_policy"] as? String, "trial \(id)")
        }
    }

    /// Two workers of `--threads P` (P = this machine's processors) would run 2·P compute threads
    /// on P processors, so they wait passively; with `ACTIONLAB_WAIT_POLICY` set, the workers keep
    /// the value given. Each trial's provenance says which, and both runs train the same bits.
    @Test func oversubscribedWorkersWaitPassively() throws {
        let project = try Self.makeProject(epochs: 2, grid: #""windows.duration": [5, 10]"#)
        let threads = "\(ProcessInfo.processInfo.activeProcessorCount)"
        func run(_ output: String, policy: String?) throws -> URL {
            let result = try CommandLineTool.run(
                ["run", "experiments/sweep.json5", "--output", output, "--jobs", "2", "--threads", threads], in: project.url,
                environment: ["ACTIONLAB_WAIT_POLICY": policy])
            #expect(result.status == 0, "stderr: \(result.errorOutput)")
            return project.file(output)
        }
        let automatic = try run("automatic", policy: nil)
        #expect(try Self.waitPolicies(automatic) == Array(repeating: "passive", count: 4))
        let chosen = try run("chosen", policy: "active")
        #expect(try Self.waitPolicies(chosen) == Array(repeating: "active", count: 4))
        for id in try Self.trialIDs(automatic) {
            let a = try Data(contentsOf: automatic.appendingPathComponent("trials/\(id)/metrics.json"))
            let b = try Data(contentsOf: chosen.appendingPathComponent("trials/\(id)/metrics.json"))
            #expect(a == b, "trial \(id) differs between the wait policies")
        }
    }

    @Test func parallelWorkersAndAResumedKilledRunMatchOneWorker() throws {
        let project = try Self.makeProject()
        let serial = try CommandLineTool.run(["run", "experiments/sweep.json5", "--output", "serial", "--jobs", "1"], in: project.url)
        #expect(serial.status == 0, "stderr: \(serial.errorOutput)")
        let serialFolder = project.file("serial")
        #expect(try Self.trialIDs(serialFolder).count == 8)

        let parallel = try CommandLineTool.run(["run", "experiments/sweep.json5", "--output", "parallel", "--jobs", "2"], in: project.url)
        #expect(parallel.status == 0, "stderr: \(parallel.errorOutput)")
        // The workers' log lines carry the parent's elapsed time: the log's times never go back
        // (they did, by the workers' later start; trial 4, finding 13).
        let times = parallel.errorOutput.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("["), let close = line.firstIndex(of: "s") else { return nil }
            return Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces))
        }
        #expect(times.count > 10 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 + 0.15 }, "\(parallel.errorOutput)")
        #expect(parallel.errorOutput.contains("trial "), "workers' lines are relayed")
        #expect(try Self.leaderboardWithoutTimes(project.file("parallel")) == Self.leaderboardWithoutTimes(serialFolder))
        #expect(try Self.trialIDs(project.file("parallel")) == Self.trialIDs(serialFolder))
        for id in try Self.trialIDs(serialFolder) {
            let a = try Data(contentsOf: serialFolder.appendingPathComponent("trials/\(id)/metrics.json"))
            let b = try Data(contentsOf: project.file("parallel/trials/\(id)/metrics.json"))
            #expect(a == b, "trial \(id) differs between --jobs 1 and --jobs 2")
        }

        // kill -9 once three trials have finished, then resume the folder.
        let killed = project.file("killed")
        let process = Process()
        process.executableURL = try CommandLineTool.executable
        process.arguments = ["run", "experiments/sweep.json5", "--output", killed.path]
        process.currentDirectoryURL = project.url
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            let finished = (try? Self.trialIDs(killed))?.filter { !$0.contains(".partial-") }.count ?? 0
            if finished >= 3 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(process.isRunning, "the run finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent("leaderboard.csv").path))

        let resumed = try CommandLineTool.run(["run", killed.path], in: project.url)
        #expect(resumed.status == 0, "stderr: \(resumed.errorOutput)")
        #expect(resumed.errorOutput.contains("trials finished, running"))
        #expect(try Self.trialIDs(killed) == Self.trialIDs(serialFolder), "partial folders must be gone and every trial present once")
        #expect(try Self.leaderboardWithoutTimes(killed) == Self.leaderboardWithoutTimes(serialFolder))

        // Interrupted (SIGTERM here; Ctrl-C's SIGINT the same, unless the process started with it
        // ignored, as a background job does), the run says how to resume and ends by the signal.
        let interrupted = project.file("interrupted")
        let errors = project.file("interrupted.stderr")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let interruptedProcess = Process()
        interruptedProcess.executableURL = try CommandLineTool.executable
        interruptedProcess.arguments = ["run", "experiments/sweep.json5", "--output", interrupted.path]
        interruptedProcess.currentDirectoryURL = project.url
        interruptedProcess.standardError = try FileHandle(forWritingTo: errors)
        interruptedProcess.standardOutput = FileHandle.nullDevice
        try interruptedProcess.run()
        let interruptBy = Date().addingTimeInterval(120)
        while Date() < interruptBy, interruptedProcess.isRunning {
            if ((try? Self.trialIDs(interrupted))?.filter { !$0.contains(".partial-") }.count ?? 0) >= 1 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(interruptedProcess.isRunning, "the run finished before it could be interrupted")
        kill(interruptedProcess.processIdentifier, SIGTERM)
        interruptedProcess.waitUntilExit()
        #expect(interruptedProcess.terminationReason == .uncaughtSignal && interruptedProcess.terminationStatus == SIGTERM)
        let said = try String(contentsOf: errors, encoding: .utf8)
        #expect(said.contains("interrupted: finished trials are kept, and a trial's checkpoint; resume with 'actionlab run \(interrupted.path)'"),
                "stderr: \(said)")

        // A second resume has nothing left to do.
        let again = try CommandLineTool.run(["run", killed.path], in: project.url)
        #expect(again.status == 0)
        #expect(again.errorOutput.contains("8 of 8 trials finished, running 0"))
    }

    /// kill -9 on `actionlab run --jobs 2` ends its two workers too (they watch a pipe from it),
    /// so none trains on orphaned; the next run adopts their checkpoints and finishes the sweep.
    @Test func killingARunEndsItsWorkers() throws {
        let project = try Self.makeLongProject()
        let folder = project.file("killed")
        let process = Process()
        process.executableURL = try CommandLineTool.executable
        process.arguments = ["run", "experiments/long.json5", "--output", folder.path, "--jobs", "2"]
        process.currentDirectoryURL = project.url
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        func workers() -> Set<pid_t> { Set(Self.workerPIDs(folder)) }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning, workers().count < 2 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let pids = workers()
        #expect(pids.count == 2 && !pids.contains(process.processIdentifier), "workers: \(pids)")
        #expect(process.isRunning, "the run finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // Gone, or a zombie waiting for whoever adopted it to reap it.
        func isAlive(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0,
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let state = stat.split(separator: ")").last?.split(separator: " ").first else { return false }
            return state != "Z"
        }
        let stopBy = Date().addingTimeInterval(20)
        while Date() < stopBy, pids.contains(where: isAlive) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!pids.contains(where: isAlive), "workers still running after the run was killed: \(pids.filter(isAlive))")

        let resumed = try CommandLineTool.run(["run", folder.path, "--jobs", "2"], in: project.url)
        #expect(resumed.status == 0, "stderr: \(resumed.errorOutput)")
        #expect(try Self.trialIDs(folder).count == 8)
        #expect(try Self.trialIDs(folder).allSatisfy { !$0.contains(".partial-") })
    }

    /// A worker killed on its own (as the out-of-memory killer would) is named with its signal;
    /// its unfinished trials are listed as failed, and the next run finishes them.
    @Test func aKilledWorkerIsReportedAndItsTrialsResume() throws {
        let project = try Self.makeLongProject()
        let folder = project.file("sweep")
        let errorFile = project.file("stderr.txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = try CommandLineTool.executable
        process.arguments = ["run", "experiments/long.json5", "--output", folder.path, "--jobs", "2"]
        process.currentDirectoryURL = project.url
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var victim: pid_t?
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning, victim == nil {
            victim = Self.workerPIDs(folder).first
            Thread.sleep(forTimeInterval: 0.02)
        }
        let pid = try #require(victim)
        kill(pid, SIGKILL)
        process.waitUntilExit()
        let log = try String(contentsOf: errorFile, encoding: .utf8)
        #expect(process.terminationStatus == 1)
        #expect(log.contains("worker \(pid) (trials "), "stderr: \(log)")
        #expect(log.contains("was killed by signal 9"), "stderr: \(log)")
        #expect(log.contains("not finished by its worker"), "stderr: \(log)")

        let resumed = try CommandLineTool.run(["run", folder.path, "--jobs", "2"], in: project.url)
        #expect(resumed.status == 0, "stderr: \(resumed.errorOutput)")
        #expect(try Self.trialIDs(folder).count == 8)
        #expect(try Self.trialIDs(folder).allSatisfy { !$0.contains(".partial-") })
    }

    /// The cluster workflow: prepare the folder, run trials by index (as a job array would), then
    /// a final `run` on the folder writes the reports.
    @Test func preparedFolderRunsTrialsByIndexThenReports() throws {
        let project = try Self.makeProject()
        let validate = try CommandLineTool.run(["validate", "experiments/sweep.json5"], in: project.url)
        #expect(validate.status == 0, "stderr: \(validate.errorOutput)")
        #expect(validate.output.contains("Sweep: 4 configurations × 2 seeds = 8 trials"))
        #expect(validate.output.contains("windows.duration: 5, 10"))

        let prepare = try CommandLineTool.run(["run", "experiments/sweep.json5", "--prepare", "--output", "cluster"], in: project.url)
        #expect(prepare.status == 0, "stderr: \(prepare.errorOutput)")
        let folder = project.file("cluster")
        #expect(try Self.trialIDs(folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaderboard.csv").path))
        // A sweep folder resumes as it was made: no new output folder, no other thread count.
        let moved = try CommandLineTool.run(["run", "cluster", "--output", "elsewhere"], in: project.url)
        #expect(moved.status == 2 && moved.errorOutput.contains("--output goes with a manifest"), "stderr: \(moved.errorOutput)")
        let rethreaded = try CommandLineTool.run(["run", "cluster", "--threads", "2"], in: project.url)
        #expect(rethreaded.status == 2 && rethreaded.errorOutput.contains("--threads goes with a manifest"),
                "stderr: \(rethreaded.errorOutput)")

        for index in 0..<8 {
            let trial = try CommandLineTool.run(["trial", "cluster", "\(index)"], in: project.url)
            #expect(trial.status == 0, "trial \(index): \(trial.errorOutput)")
        }
        #expect(try Self.trialIDs(folder).count == 8)
        let outside = try CommandLineTool.run(["trial", "cluster", "8"], in: project.url)
        #expect(outside.status == 1)
        #expect(outside.errorOutput.contains("no trial 8: the sweep has trials 0 to 7"), "stderr: \(outside.errorOutput)")

        // Every trial finished: run DIR writes the reports.
        let report = try CommandLineTool.run(["run", "cluster"], in: project.url)
        #expect(report.status == 0, "stderr: \(report.errorOutput)")
        #expect(report.errorOutput.contains("8 of 8 trials finished, running 0"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaderboard.csv").path))

        let missing = try CommandLineTool.run(["trial", "nowhere", "0"], in: project.url)
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("is not a sweep folder"))
    }

    /// A submission that sbatch refuses (a fake sbatch on the PATH) leaves a prepared folder and
    /// says how to go on from it; the folder stays Slurm's: `run DIR` submits again with the
    /// resources the refused submission asked for (trial 4, finding 9), and `status` says it was
    /// refused.
    @Test func aRefusedSubmissionSaysHowToGoOn() throws {
        let project = try Self.makeProject()
        let bin = project.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // Refuses every script, after keeping a copy of its directives.
        let sbatch = bin.appendingPathComponent("sbatch")
        try Data("""
            #!/bin/sh
            for argument; do script=$argument; done
            grep '^#SBATCH' "$script" >> \(project.file("sbatch-calls").path)
            echo 'sbatch: error: invalid partition specified: nosuch' >&2
            exit 1

            """.utf8).write(to: sbatch)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sbatch.path)
        let squeue = bin.appendingPathComponent("squeue")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: squeue)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: squeue.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let refused = try CommandLineTool.run(
            ["run", "experiments/sweep.json5", "--launcher", "slurm", "--partition", "nosuch", "--mem", "3G", "--output", "refused"],
            in: project.url, environment: ["PATH": path])
        #expect(refused.status == 1, "stderr: \(refused.errorOutput)")
        #expect(refused.errorOutput.contains("is prepared but not submitted; once the cause below is fixed, 'actionlab run "),
                "stderr: \(refused.errorOutput)")
        #expect(refused.errorOutput.contains("invalid partition specified: nosuch"), "stderr: \(refused.errorOutput)")

        let status = try CommandLineTool.run(["status", "refused"], in: project.url, environment: ["PATH": path])
        #expect(status.output.contains("note: sbatch refused the latest submission (slurm/submission-1.sbatch)"),
                "stdout: \(status.output)\nstderr: \(status.errorOutput)")
        #expect(status.output.contains("8 not submitted"), "stdout: \(status.output)")

        // run DIR goes to Slurm again, with the partition and memory it was given, and --time added.
        let resumed = try CommandLineTool.run(["run", "refused", "--time", "30"], in: project.url, environment: ["PATH": path])
        #expect(resumed.status == 1 && resumed.errorOutput.contains("invalid partition specified: nosuch"),
                "stderr: \(resumed.errorOutput)")
        #expect(try Self.trialIDs(project.file("refused")).isEmpty)
        let calls = try String(contentsOf: project.file("sbatch-calls"), encoding: .utf8)
        let partitions = calls.split(separator: "\n").filter { $0 == "#SBATCH --partition=nosuch" }
        #expect(partitions.count == 2, "\(calls)")
        #expect(calls.split(separator: "\n").filter { $0 == "#SBATCH --mem=3G" }.count == 2, "\(calls)")
        #expect(calls.contains("#SBATCH --time=30"), "\(calls)")

        // So does the manifest with the same --output (it would train on the login node otherwise; trial 6).
        let byManifest = try CommandLineTool.run(["run", "experiments/sweep.json5", "--output", "refused"],
                                                 in: project.url, environment: ["PATH": path])
        #expect(byManifest.status == 1 && byManifest.errorOutput.contains("invalid partition specified: nosuch"),
                "stderr: \(byManifest.errorOutput)")
        #expect(try Self.trialIDs(project.file("refused")).isEmpty)

        // What the record holds is checked before it goes into a job script (trial 6: a newline
        // in it became a shell command).
        let attempt = project.file("refused/slurm/attempt.json")
        try Data(#"{"number": 1, "attempted": 0, "options": {"time": "1", "extraArguments": ["--comment=x\necho injected"]}}"#.utf8)
            .write(to: attempt)
        let tampered = try CommandLineTool.run(["run", "refused"], in: project.url, environment: ["PATH": path])
        #expect(tampered.status == 1, "stderr: \(tampered.errorOutput)")
        #expect(tampered.errorOutput.contains("\(attempt.path): the resources it records cannot go into a job script: time 1:"),
                "stderr: \(tampered.errorOutput)")
        #expect(tampered.errorOutput.contains("extraArguments[0]"), "stderr: \(tampered.errorOutput)")

        // A damaged record: status still lists the trials, with a note naming it.
        try Data("{\"number\": ".utf8).write(to: attempt)
        let damaged = try CommandLineTool.run(["status", "refused"], in: project.url, environment: ["PATH": path])
        #expect(damaged.status == 0, "stderr: \(damaged.errorOutput)")
        #expect(damaged.output.contains("note: \(attempt.path): not a Slurm submission attempt written by run --launcher slurm"),
                "stdout: \(damaged.output)")
        #expect(damaged.output.contains("8 not submitted"), "stdout: \(damaged.output)")
        let blocked = try CommandLineTool.run(["run", "refused"], in: project.url, environment: ["PATH": path])
        #expect(blocked.status == 1 && blocked.errorOutput.contains("deleting it loses only the resources"),
                "stderr: \(blocked.errorOutput)")
    }

    @Test func contradictoryGridCellIsAnErrorNamingTheCell() throws {
        let project = try TemporaryDirectory(prefix: "actionlab-sweep")
        let train = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        _ = try writeFixture("""
            {
              name: "contradiction",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              windows: { size: 50 },
              sweep: { grid: { "windows.duration": [5, 10], "training.seeds": [[1]] } },
            }
            """, named: "bad.json5", in: project.url)
        let result = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("cannot sweep 'training.seeds'"), "stderr: \(result.errorOutput)")
        // Once the seeds axis is removed, 5 s agrees with 50 frames at 10 fps but 10 s does not.
        _ = try writeFixture("""
            {
              name: "contradiction",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              windows: { size: 50 },
              sweep: { grid: { "windows.duration": [5, 10] } },
            }
            """, named: "bad.json5", in: project.url)
        let cell = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(cell.status == 1)
        #expect(cell.errorOutput.contains("sweep cell 1 (windows.duration=10)"), "stderr: \(cell.errorOutput)")
        #expect(!cell.errorOutput.contains("sweep cell 0"), "stderr: \(cell.errorOutput)")

        // Two linked window settings swept while the manifest fixes the third: the message says so.
        _ = try writeFixture("""
            {
              name: "contradiction",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              windows: { duration: 10 },
              sweep: { grid: { "windows.size": [50, 100], "windows.frameRate": [5, 10] } },
            }
            """, named: "bad.json5", in: project.url)
        let linked = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(linked.status == 1)
        #expect(linked.errorOutput.contains(
            "sweep cell 1 (windows.size=50, windows.frameRate=10): contradictory values: windows.size is 50 frames, but "
                + "windows.duration 10 s at 10 frames per second is 100 frames; the manifest sets windows.duration for every "
                + "cell: remove it to sweep windows.size and windows.frameRate"), "stderr: \(linked.errorOutput)")

        // A problem of several cells is listed once, naming the cells by the grid value they share;
        // one of every cell (a misspelt axis, found at each of its values) says so.
        _ = try writeFixture("""
            {
              name: "grouped",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              sweep: { grid: { "training.learningRat": [0.1, 0.2], "model.kind": ["tcn", "lstm", "gru"] } },
            }
            """, named: "bad.json5", in: project.url)
        let grouped = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(grouped.status == 1)
        let lines = grouped.errorOutput.split(separator: "\n").map(String.init).filter { $0.contains("bad.json5:") }
        #expect(lines.count == 3, "stderr: \(grouped.errorOutput)")
        // The suggestion is a grid key, not the key inside `training`.
        #expect(lines.contains { $0.contains("training.learningRat: every sweep cell (6): unknown key; did you mean 'training.learningRate'?") },
                "stderr: \(grouped.errorOutput)")
        #expect(lines.contains { $0.contains("model.kind: the 2 sweep cells with model.kind=\"lstm\": unknown value 'lstm'") },
                "stderr: \(grouped.errorOutput)")
        _ = try writeFixture("""
            {
              name: "grouped",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              sweep: { grid: { "training.learningRat": [0.1], "training.epochs": [1, 2] } },
            }
            """, named: "bad.json5", in: project.url)
        let every = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(every.status == 1)
        #expect(every.errorOutput.contains("training.learningRat: every sweep cell (2): unknown key"), "stderr: \(every.errorOutput)")

        // An empty axis does not hide the problems of the others' cells: all at once.
        _ = try writeFixture("""
            {
              name: "grouped",
              dataset: { sources: [{ format: "uea", path: "\(train.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              sweep: { grid: { "training.epochs": [], "model.kind": ["tcn", "resnet"] } },
            }
            """, named: "bad.json5", in: project.url)
        let empty = try CommandLineTool.run(["validate", "bad.json5"], in: project.url)
        #expect(empty.status == 1)
        #expect(empty.errorOutput.contains("sweep.grid[\"training.epochs\"]: expected a non-empty array of values to sweep")
                && empty.errorOutput.contains("model.kind: sweep cell 1 (model.kind=\"resnet\"): unknown value 'resnet'"),
                "stderr: \(empty.errorOutput)")
    }
}
