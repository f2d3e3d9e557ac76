import ActionLabTestSupport
import AtomicFiles
import Foundation
import Manifest
import Sweeps
import Testing
import Training

/// What kill -9 leaves behind, met again by the next run: a half-written temporary file in a
/// partial trial folder, a sweep folder whose creation was cut short; and the trial claims that
/// keep two processes from training one trial.
@Suite(.serialized) struct InterruptedSweepTests {
    struct Killed: Error {}

    /// BasicMotions with a small TCN: 4 epochs, a checkpoint every 2.
    static func plan(scratch: URL) throws -> SweepPlan {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        return try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting { configuration in
            configuration.features.cache = scratch.appendingPathComponent("cache")
            configuration.output.directory = scratch.appendingPathComponent("reports")
            configuration.training.seeds = [3]
            configuration.training.epochs = 4
            configuration.training.checkpointEvery = 2
            configuration.model = .tcn(channels: [8, 8], kernelSizes: [5, 3], dropout: 0)
        }
    }

    /// The partial folder of `trial` in `sweep` as a process killed in epoch 3 of ``plan(scratch:)``
    /// leaves it: the epoch-2 checkpoint, claimed by a dead pid (2^22 + 1, above Linux's pid_max).
    static func killedAfterCheckpoint(_ trial: Trial, in sweep: URL) throws -> URL {
        let partial = sweep.appendingPathComponent("trials/\(trial.id).partial-4194305")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        let windows = try TrainingResumeTests.windows(trial.configuration)
        _ = try? Trainer(configuration: trial.configuration).fit(
            train: windows.train, validation: windows.validation, seed: trial.seed,
            checkpoint: partial.appendingPathComponent(TrialRunner.checkpointName)
        ) { record in
            if record.epoch == 3 { throw Killed() }
        }
        return partial
    }

    static func temporaryFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { AtomicFile.writerProcess(ofTemporaryFileNamed: $0) != nil }
    }

    /// A writer killed mid-file left `.NAME.tmp-PID-UUID` in its partial folder: the run that
    /// adopts the folder removes it (and any other temporary file: it holds the trial's claim),
    /// so the finished trial folder holds none.
    @Test func adoptedPartialFolderLosesItsHalfWrittenTemporaryFiles() throws {
        let scratch = try TemporaryDirectory(prefix: "interrupted-trial")
        let plan = try Self.plan(scratch: scratch.url)
        let trial = try #require(plan.trials.first)
        let sweep = scratch.file("sweep")
        // A process that died after its epoch-2 checkpoint, in the middle of writing two files:
        // the second writer's pid is this process's.
        let partial = try Self.killedAfterCheckpoint(trial, in: sweep)
        let deadWriter = partial.appendingPathComponent(".metrics.json.tmp-4194305-\(UUID().uuidString)")
        let liveWriter = partial.appendingPathComponent(".weights.h5.tmp-\(getpid())-\(UUID().uuidString)")
        try Data("{\"half\": ".utf8).write(to: deadWriter)
        try Data([0x89, 0x48, 0x44]).write(to: liveWriter)

        let lines = LogLines()
        try TrialRunner(log: lines.append).run(trial, in: sweep)
        #expect(lines.lines.contains { $0.contains("resuming from the checkpoint") }, "\(lines.lines)")
        #expect(lines.lines.contains { $0.contains("removed 2 temporary files left half-written") }, "\(lines.lines)")
        let finished = TrialRunner.folder(of: trial, in: sweep)
        #expect(TrialRunner.outcome(of: trial, in: sweep) != nil)
        #expect(try Self.temporaryFiles(in: finished) == [], "a finished trial folder holds no temporary file")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    /// An older version created a sweep folder in place; killed in those milliseconds, it left
    /// `trials/`, the manifest and `resolved.json` without `sweep.json`. Resuming the folder says
    /// what happened and what to run; running the manifest into it creates it afresh.
    @Test func halfCreatedSweepFolderIsNamedAndCreatedAfresh() throws {
        let scratch = try TemporaryDirectory(prefix: "interrupted-creation")
        let plan = try Self.plan(scratch: scratch.url)
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        let folder = scratch.file("sweep")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trials"), withIntermediateDirectories: true)
        try Data(contentsOf: manifest).write(to: folder.appendingPathComponent("manifest.json5"))
        try Data("{".utf8).write(to: folder.appendingPathComponent(".resolved.json.tmp-4194305-\(UUID().uuidString)"))
        #expect(SweepRecord.isInterruptedCreation(folder))

        do {
            _ = try SweepRunner.resuming(folder)
            Issue.record("a half-created folder was resumed")
        } catch let error as SweepError {
            #expect("\(error)".contains("its creation was interrupted"), "\(error)")
            #expect("\(error)".contains("actionlab run MANIFEST --output \(folder.path)"), "\(error)")
        }

        let lines = LogLines()
        let created = try SweepRunner(plan: plan, manifestURL: manifest, log: lines.append).run(output: folder, prepareOnly: true)
        #expect(created == folder)
        #expect(lines.lines.contains { $0.contains("creating it afresh") }, "\(lines.lines)")
        let record = try SweepRunner.resuming(folder)
        #expect(record.plan.trials.map(\.id) == plan.trials.map(\.id))
        #expect(try Self.temporaryFiles(in: folder) == [])
    }

    /// Sweep-folder creation is atomic: when it fails half-way (here the manifest vanished before
    /// it was copied), no folder is left, and no temporary sibling either.
    @Test func failedCreationLeavesNoFolder() throws {
        let scratch = try TemporaryDirectory(prefix: "atomic-creation")
        let plan = try Self.plan(scratch: scratch.url)
        let folder = scratch.file("sweeps/sweep")
        #expect(throws: (any Error).self) {
            try SweepRunner(plan: plan, manifestURL: scratch.file("vanished.json5")).run(output: folder, prepareOnly: true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "a half-created sweep folder was left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("sweeps").path) == [])
    }

    /// A claim is exclusive while held, also within one process, and free once released.
    @Test func claimIsExclusiveUntilReleased() throws {
        let scratch = try TemporaryDirectory(prefix: "claims")
        let trial = try #require(try Self.plan(scratch: scratch.url).trials.first)
        let first = try #require(try TrialClaim.claimIfFree(trial, in: scratch.url))
        #expect(try TrialClaim.claimIfFree(trial, in: scratch.url) == nil)
        first.release()
        first.release()
        let second = try #require(try TrialClaim.claimIfFree(trial, in: scratch.url))
        #expect(second.trialID == trial.id)
        #expect(FileManager.default.fileExists(atPath: TrialClaim.lockFile(of: trial, in: scratch.url).path))
    }
}
