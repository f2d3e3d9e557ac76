import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab run --launcher slurm` and `actionlab status` on the one-node cluster that
/// `scripts/slurm-local start` runs (`scripts/test` starts it as root): the array and the
/// report job finish with the local leaderboard; a cancelled task's trial completes once on
/// resubmission, from its checkpoint; a failed task shows in `status` with its log and completes
/// on resubmission. Without a cluster these tests fail, saying how to start one.
@Suite(.serialized) struct SlurmLauncherTests {
    /// A BasicMotions manifest of 3 seeds and `epochs` epochs, its data by absolute path.
    static func manifest(epochs: Int, launcher: String = "", in scratch: TemporaryDirectory) throws -> URL {
        let train = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts").path
        let test = try TestData.file("uea/BasicMotions/BasicMotions_TEST.ts").path
        return try writeFixture("""
            {
              name: "basicmotions-slurm",
              dataset: {
                sources: [{ format: "uea", path: "\(train)" }],
                validation: { strategy: "automatic", fraction: 0.2 },
                test: { sources: [{ format: "uea", path: "\(test)" }] },
              },
              features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "\(scratch.file("cache").path)" },
              windows: { duration: 10 },
              training: { seeds: [1, 2, 3], epochs: \(epochs) },
              \(launcher)
            }
            """, named: "basicmotions-slurm.json5", in: scratch.url)
    }

    /// Fails with how to start a cluster when `sinfo` finds none.
    static func requireCluster() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sinfo", "--noheader"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            Issue.record("no Slurm here: run scripts/setup, then scripts/slurm-local start as root")
            throw error
        }
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "no Slurm controller answers: run scripts/slurm-local start as root")
    }

    /// Waits until `status` says every trial finished and the reports are current.
    static func waitUntilFinished(_ folder: URL, in directory: URL, seconds: Double = 150) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            let status = try CommandLineTool.run(["status", folder.path], in: directory)
            last = status.output + status.errorOutput
            if status.output.contains("reports current"), !status.output.contains("pending"), !status.output.contains("running"),
               !status.output.contains("failed") {
                return status.output
            }
            Thread.sleep(forTimeInterval: 2)
        }
        Issue.record("the sweep did not finish within \(seconds) s; last status:\n\(last)")
        return last
    }

    @Test func theArrayAndTheReportJobGiveTheLocalLeaderboard() throws {
        try Self.requireCluster()
        let scratch = try TemporaryDirectory()
        // The manifest's launcher section chooses Slurm, also for the folder `--prepare` made from
        // it; --launcher local overrides it.
        let manifest = try Self.manifest(epochs: 3, launcher: "launcher: { kind: \"slurm\", cpusPerTask: 1 },", in: scratch)
        let prepared = try CommandLineTool.run(["run", manifest.path, "--prepare", "--output", scratch.file("slurm").path], in: scratch.url)
        try #require(prepared.status == 0, "\(prepared.errorOutput)")
        let submitted = try CommandLineTool.run(["run", scratch.file("slurm").path], in: scratch.url)
        #expect(submitted.status == 0 && submitted.errorOutput.contains("submitted job array"), "\(submitted.errorOutput)")
        let script = try String(contentsOf: scratch.file("slurm/slurm/submission-1.sbatch"), encoding: .utf8)
        #expect(script.contains("#SBATCH --cpus-per-task=1\n") && script.contains("#SBATCH --array=0-2\n"), "\(script)")
        let status = try Self.waitUntilFinished(scratch.file("slurm"), in: scratch.url)
        #expect(status.contains("3 finished; reports current"), "\(status)")
        let local = try CommandLineTool.run(
            ["run", manifest.path, "--launcher", "local", "--output", scratch.file("local").path], in: scratch.url)
        #expect(local.status == 0, "\(local.errorOutput)")
        // Every column but the last (seconds) agrees.
        #expect(try Self.leaderboardWithoutTiming(scratch.file("slurm")) == Self.leaderboardWithoutTiming(scratch.file("local")))
        // And every trial file, byte for byte, but the timing and the host-dependent records.
        try Self.expectSameTrialFiles(scratch.file("slurm"), scratch.file("local"), trials: 3)
        let provenance = try String(
            contentsOf: try #require(FileManager.default.enumerator(at: scratch.file("slurm/trials"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "provenance.json" }), encoding: .utf8)
        #expect(provenance.contains("\"array_task_id\""), "no Slurm ids in \(provenance)")
    }

    /// The issue's acceptance run: `experiments/basicmotions-sweep.json5` as committed (27 trials,
    /// 60 epochs), its relative paths resolved in a scratch folder that links `data/`.
    @Test func theCommittedSweepGivesTheLeaderboardOfOneLocalWorker() throws {
        try Self.requireCluster()
        let scratch = try TemporaryDirectory()
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        try FileManager.default.createSymbolicLink(at: scratch.file("data"), withDestinationURL: TestData.root)
        try FileManager.default.copyItem(
            at: TestData.packageRoot.appendingPathComponent("experiments/basicmotions-sweep.json5"),
            to: scratch.file("basicmotions-sweep.json5"))
        let submitted = try CommandLineTool.run(
            ["run", "basicmotions-sweep.json5", "--launcher", "slurm", "--cpus-per-task", "1", "--output", "slurm"], in: scratch.url)
        try #require(submitted.status == 0, "\(submitted.errorOutput)")
        #expect(submitted.errorOutput.contains("27 trials in 27 tasks"), "\(submitted.errorOutput)")
        let status = try Self.waitUntilFinished(scratch.file("slurm"), in: scratch.url, seconds: 900)
        #expect(status.contains("27 finished; reports current"), "\(status)")
        let local = try CommandLineTool.run(["run", "basicmotions-sweep.json5", "--jobs", "1", "--output", "local"], in: scratch.url)
        #expect(local.status == 0, "\(local.errorOutput)")
        let leaderboard = try Self.leaderboardWithoutTiming(scratch.file("slurm"))
        let localLeaderboard = try Self.leaderboardWithoutTiming(scratch.file("local"))
        #expect(leaderboard.count == 10 && leaderboard == localLeaderboard, "\(leaderboard)")
        try Self.expectSameTrialFiles(scratch.file("slurm"), scratch.file("local"), trials: 27)
    }

    /// Trial 1 trains long enough to be cancelled mid-trial in a release build (about 10 ms an
    /// epoch here); trial 0 is short.
    #if DEBUG
    static let longEpochs = 300
    #else
    static let longEpochs = 1500
    #endif

    @Test func aCancelledTaskCompletesOnceOnResubmissionWithTheSameLeaderboard() throws {
        try Self.requireCluster()
        let scratch = try TemporaryDirectory()
        let train = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts").path
        let manifest = try writeFixture("""
            {
              name: "basicmotions-cancel",
              dataset: { sources: [{ format: "uea", path: "\(train)" }], validation: { strategy: "automatic", fraction: 0.2 } },
              features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "\(scratch.file("cache").path)" },
              windows: { duration: 10 },
              training: { seeds: [1] },
              sweep: { grid: { "training.epochs": [20, \(Self.longEpochs)] } },
            }
            """, named: "cancel.json5", in: scratch.url)
        let folder = scratch.file("sweep")
        let submitted = try CommandLineTool.run(
            ["run", manifest.path, "--launcher", "slurm", "--cpus-per-task", "1", "--output", folder.path], in: scratch.url)
        try #require(submitted.status == 0, "\(submitted.errorOutput)")
        let submissions = try String(contentsOf: folder.appendingPathComponent("slurm/submissions.json"), encoding: .utf8)
        let arrayID = try #require(submissions.firstMatch(of: /"arrayJobID"\s*:\s*"(\d+)"/)?.1)
        let listing = try CommandLineTool.run(["status", folder.path], in: scratch.url).output
        let longID = try #require(listing.firstMatch(of: /trial 1 \[([0-9a-f]+)\]/)?.1, "\(listing)")
        // Cancel task 1 once its trial has a checkpoint.
        let deadline = Date().addingTimeInterval(180)
        func checkpointed() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("trials").path)) ?? [])
                .contains { $0.hasPrefix("\(longID).partial-")
                    && FileManager.default.fileExists(atPath: folder.appendingPathComponent("trials/\($0)/checkpoint.h5").path) }
        }
        while !checkpointed() && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        try #require(checkpointed(), "trial 1 wrote no checkpoint within 180 s")
        let cancel = Process()
        cancel.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cancel.arguments = ["scancel", "\(arrayID)_1"]
        try cancel.run()
        cancel.waitUntilExit()
        var status = ""
        while Date() < deadline.addingTimeInterval(180) {
            status = try CommandLineTool.run(["status", folder.path], in: scratch.url).output
            if status.contains("1 finished, 1 interrupted") { break }
            Thread.sleep(forTimeInterval: 1)
        }
        // Ended by TERM with a checkpoint: interrupted, not failed (the next submission resumes it).
        #expect(status.contains("1 finished, 1 interrupted") && status.contains("exit 143"),
                "the cancelled task should be interrupted with exit 143: \(status)")
        let finishedBefore = try Self.completionDates(folder)
        #expect(finishedBefore.count == 1 && finishedBefore[String(longID)] == nil, "trial 1 finished before the cancel landed")
        let again = try CommandLineTool.run(["run", folder.path], in: scratch.url)
        #expect(again.status == 0 && again.errorOutput.contains("1 trial in 1 task"), "\(again.errorOutput)")
        _ = try Self.waitUntilFinished(folder, in: scratch.url, seconds: 300)
        let finishedAfter = try Self.completionDates(folder)
        #expect(finishedAfter.count == 2)
        for (id, date) in finishedBefore { #expect(finishedAfter[id] == date, "trial \(id) ran again") }
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("slurm/logs").path)
        let resumed = try logs.filter { !$0.hasPrefix(arrayID + "_") && $0.hasSuffix(".out") && !$0.contains("report") }.map {
            try String(contentsOf: folder.appendingPathComponent("slurm/logs/\($0)"), encoding: .utf8)
        }
        #expect(resumed.contains { $0.contains("resuming from the checkpoint") }, "\(resumed)")
        // Resumed from its checkpoint, the trial scores as if never cancelled.
        let local = try CommandLineTool.run(
            ["run", manifest.path, "--launcher", "local", "--output", scratch.file("local").path], in: scratch.url)
        #expect(local.status == 0, "\(local.errorOutput)")
        #expect(try Self.leaderboardWithoutTiming(folder) == Self.leaderboardWithoutTiming(scratch.file("local")))
    }

    /// Five minutes after a job ends the controller forgets it, and `squeue --jobs=<id>` fails
    /// for that id; `status` and resubmission must still work on such a folder.
    @Test func aSubmissionTheControllerHasForgottenCountsAsEnded() throws {
        try Self.requireCluster()
        let scratch = try TemporaryDirectory()
        let folder = try Self.preparedSweep(in: scratch)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("slurm"), withIntermediateDirectories: true)
        try Data(#"[{"number": 1, "arrayJobID": "999999", "reportJobID": "1000000", "tasks": [[0], [1], [2]], "submitted": 0}]"#.utf8)
            .write(to: folder.appendingPathComponent("slurm/submissions.json"))
        let status = try CommandLineTool.run(["status", folder.path], in: scratch.url)
        #expect(status.status == 0, "\(status.errorOutput)")
        // No log and no exit status: the tasks never started (a started task always has its log).
        #expect(status.output.contains("trial 0 [")
                    && status.output.contains(": not started, Slurm task 999999_0 (cancelled or ended before it started)\n"),
                "\(status.output)")
        #expect(!status.output.contains("slurm/logs/999999_0.out"), "\(status.output)")
        #expect(status.output.hasSuffix("3 not started; reports not current\n"), "\(status.output)")
    }

    /// Expects the same trial files in both sweep folders, byte for byte (``trialFiles(_:)``).
    static func expectSameTrialFiles(_ folder: URL, _ other: URL, trials: Int) throws {
        let files = try trialFiles(folder)
        let otherFiles = try trialFiles(other)
        #expect(files.count > trials * 8 && Set(files.keys) == Set(otherFiles.keys), "\(files.keys.sorted())")
        for (path, data) in files { #expect(otherFiles[path] == data, "trials/\(path) differs") }
    }

    /// Every file under `trials/` by relative path, but `timing.json`, `provenance.json` (the
    /// Slurm ids) and `tensorboard/` (wall times).
    static func trialFiles(_ folder: URL) throws -> [String: Data] {
        let trials = folder.appendingPathComponent("trials")
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: trials.path)?.allObjects ?? [] {
            let name = (path as NSString).lastPathComponent
            guard name != "timing.json", name != "provenance.json", !path.contains("/tensorboard") else { continue }
            var isDirectory: ObjCBool = false
            let url = trials.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// A 3-trial, 3-epoch BasicMotions sweep folder made by `run --prepare` in `scratch/sweep`.
    static func preparedSweep(in scratch: TemporaryDirectory) throws -> URL {
        let manifest = try manifest(epochs: 3, in: scratch)
        let folder = scratch.file("sweep")
        let prepared = try CommandLineTool.run(["run", manifest.path, "--prepare", "--output", folder.path], in: scratch.url)
        try #require(prepared.status == 0, "\(prepared.errorOutput)")
        return folder
    }

    /// `leaderboard.csv` without its last column (seconds).
    static func leaderboardWithoutTiming(_ folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("leaderboard.csv"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") }
    }

    @Test func aFailedTaskIsReportedWithItsLogAndCompletesOnResubmission() throws {
        try Self.requireCluster()
        let scratch = try TemporaryDirectory()
        let folder = try Self.preparedSweep(in: scratch)
        let before = try CommandLineTool.run(["status", folder.path], in: scratch.url).output
        #expect(before.contains("3 not submitted; reports not current"), "\(before)")
        // The injected error: trial 1's lock file is a folder, so its task cannot claim the trial
        // and fails, as on a node whose file system refuses the write.
        let id = try #require(before.firstMatch(of: /trial 1 \[([0-9a-f]+)\]/)?.1)
        let lock = folder.appendingPathComponent("claims/\(id).lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let submitted = try CommandLineTool.run(
            ["run", folder.path, "--launcher", "slurm", "--cpus-per-task", "1"], in: scratch.url)
        try #require(submitted.status == 0, "\(submitted.errorOutput)")
        #expect(submitted.errorOutput.contains("3 trials in 3 tasks"), "\(submitted.errorOutput)")
        let deadline = Date().addingTimeInterval(240)
        var status = ""
        while Date() < deadline {
            status = try CommandLineTool.run(["status", folder.path], in: scratch.url).output
            if status.contains("2 finished, 1 failed") { break }
            Thread.sleep(forTimeInterval: 2)
        }
        let failed = try #require(status.split(separator: "\n").first { $0.hasPrefix("trial 1 ") }, "\(status)")
        #expect(failed.contains(": failed, Slurm task ") && failed.contains("(exit 1 on "), "\(status)")
        let logPath = try #require(failed.firstMatch(of: /, log (\/.+\.out)$/)?.1, "no log in: \(failed)")
        let log = try String(contentsOfFile: String(logPath), encoding: .utf8)
        #expect(log.contains("cannot open the trial's lock file"), "\(log)")

        try FileManager.default.removeItem(at: lock)
        // A folder with submissions resumes on Slurm, with the resources of its last submission.
        let again = try CommandLineTool.run(["run", folder.path], in: scratch.url)
        #expect(again.status == 0 && again.errorOutput.contains("1 trial in 1 task"), "\(again.errorOutput)")
        let script = try String(contentsOf: folder.appendingPathComponent("slurm/submission-2.sbatch"), encoding: .utf8)
        #expect(script.contains("#SBATCH --cpus-per-task=1\n"), "\(script)")
        let finished = try Self.waitUntilFinished(folder, in: scratch.url, seconds: 240)
        #expect(finished.contains("3 finished; reports current"), "\(finished)")
        #expect(try Self.completionDates(folder).count == 3)
        // With nothing left to submit, `run DIR` writes reports that are missing, here.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("leaderboard.csv"))
        let done = try CommandLineTool.run(["run", folder.path], in: scratch.url)
        #expect(done.status == 0 && done.errorOutput.contains("all 3 trials have finished"), "\(done.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaderboard.csv").path))
    }

    /// Modification dates of every finished trial's `complete.json`, by trial id.
    static func completionDates(_ folder: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for id in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("trials").path) {
            let marker = folder.appendingPathComponent("trials/\(id)/complete.json")
            if let date = (try? FileManager.default.attributesOfItem(atPath: marker.path))?[.modificationDate] as? Date {
                dates[id] = date
            }
        }
        return dates
    }
}
