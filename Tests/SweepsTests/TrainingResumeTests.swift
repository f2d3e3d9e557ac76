import ActionLabTestSupport
import Dataset
import FeatureCache
import HDF5
import Foundation
import Manifest
import Models
import NeuralNetwork
import Reports
import Sweeps
import Testing
import Training

/// Checkpoints and resume: a run stopped after some epochs and resumed from its checkpoint ends
/// bit-identical to an uninterrupted run, with every stateful feature of the trainer switched on
/// (dropout, augmentation, a cosine schedule with warm-up, gradient clipping, balanced class
/// weights, early stopping with best-weight restore).
@Suite(.serialized) struct TrainingResumeTests {
    struct Killed: Error {}

    /// BasicMotions with a small TCN and the trainer's stateful options.
    static func plan(scratch: URL) throws -> SweepPlan {
        _ = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        return try SweepPlan.load(contentsOf: manifest, baseDirectory: TestData.packageRoot).adjusting { configuration in
            configuration.features.cache = scratch.appendingPathComponent("cache")
            configuration.output.directory = scratch.appendingPathComponent("reports")
            configuration.training.seeds = [3]
            configuration.training.epochs = 12
            configuration.training.checkpointEvery = 4
            configuration.training.schedule = ScheduleConfiguration(kind: .cosine, minimumLearningRate: 1e-5, warmupEpochs: 2)
            configuration.training.gradientClipNorm = 1
            configuration.training.classWeights = .balanced
            configuration.training.earlyStopping = EarlyStoppingConfiguration(metric: .validationLoss, patience: 100)
            configuration.training.restoreBestWeights = true
            configuration.model = .tcn(channels: [16, 16], kernelSizes: [5, 3], dropout: 0.2)
            configuration.augmentation = AugmentationConfiguration(
                pipeline: "full", steps: AugmentationConfiguration.builtIn("full", for: configuration.features.layout) ?? [])
        }
    }

    static func windows(_ configuration: ExperimentConfiguration) throws -> (train: WindowSet, validation: WindowSet) {
        let data = try DatasetLoader(configuration: configuration, cache: FeatureCache(directory: configuration.features.cache)).load()
        let builder = WindowBuilder(
            windowSize: configuration.windows.size, stride: configuration.windows.stride,
            frameRate: configuration.windows.frameRate, padding: configuration.windows.padding)
        return (try builder.windows(of: data.train, labels: data.labels), try builder.windows(of: data.validation, labels: data.labels))
    }

    @Test func resumedTrainingIsBitIdenticalToUninterruptedTraining() throws {
        let scratch = try TemporaryDirectory(prefix: "resume")
        let configuration = try Self.plan(scratch: scratch.url).base
        let (train, validation) = try Self.windows(configuration)
        let trainer = Trainer(configuration: configuration)

        let uninterrupted = try trainer.fit(train: train, validation: validation, seed: 3)
        #expect(uninterrupted.history.count == 12)
        #expect(uninterrupted.resumedFromEpoch == nil)

        let checkpoint = scratch.file("checkpoint.h5")
        #expect(throws: Killed.self) {
            _ = try trainer.fit(train: train, validation: validation, seed: 3, checkpoint: checkpoint) { record in
                if record.epoch == 6 { throw Killed() }
            }
        }
        let saved = try Checkpoint(contentsOf: checkpoint)
        #expect(saved.metadata["epoch"] == "4", "checkpoints every 4 epochs; epochs 5 and 6 are lost with the kill")
        #expect(saved.optimizer != nil)
        #expect(saved.bestModel != nil)

        let resumed = try trainer.fit(train: train, validation: validation, seed: 3, checkpoint: checkpoint)
        #expect(resumed.resumedFromEpoch == 4)
        // The training time counts the killed run's four checkpointed epochs too.
        #expect(resumed.trainingSecondsBeforeResuming > 0)
        #expect(resumed.trainingSeconds > resumed.trainingSecondsBeforeResuming)
        #expect(uninterrupted.trainingSecondsBeforeResuming == 0)
        #expect(resumed.history == uninterrupted.history, "curves bit for bit")
        #expect(resumed.savedEpoch == uninterrupted.savedEpoch)
        let (a, b) = (resumed.model.stateDictionary(), uninterrupted.model.stateDictionary())
        #expect(a.map(\.name) == b.map(\.name))
        #expect(a.map(\.tensor) == b.map(\.tensor), "weights bit for bit")
    }

    /// The trial runner adopts the partial folder of a dead process and resumes from its checkpoint.
    @Test func trialRunnerResumesFromAKilledRunsCheckpoint() throws {
        let scratch = try TemporaryDirectory(prefix: "resume-trial")
        let plan = try Self.plan(scratch: scratch.url)
        let trial = try #require(plan.trials.first)
        let reference = scratch.file("reference")
        let killed = scratch.file("killed")
        try TrialRunner().run(trial, in: reference)

        // A process that died after its epoch-8 checkpoint: pid 2^22 + 1 is above Linux's pid_max.
        let (train, validation) = try Self.windows(trial.configuration)
        let partial = killed.appendingPathComponent("trials/\(trial.id).partial-4194305")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        _ = try? Trainer(configuration: trial.configuration).fit(
            train: train, validation: validation, seed: trial.seed, checkpoint: partial.appendingPathComponent("checkpoint.h5")
        ) { record in
            if record.epoch == 9 { throw Killed() }
        }
        let lines = LogLines()
        try TrialRunner(log: lines.append).run(trial, in: killed)
        #expect(lines.lines.contains { $0.contains("resuming from the checkpoint") })
        #expect(lines.lines.contains { $0.contains("resumed after epoch 8") })
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        let folder = TrialRunner.folder(of: trial, in: killed)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("checkpoint.h5").path))
        for file in ["curves.csv", "curves.md", "metrics.json", "complete.json"] {
            let resumed = try Data(contentsOf: folder.appendingPathComponent(file))
            let original = try Data(contentsOf: TrialRunner.folder(of: trial, in: reference).appendingPathComponent(file))
            #expect(resumed == original, "\(file) bit for bit")
        }
        let resumedWeights = try Checkpoint(contentsOf: folder.appendingPathComponent("weights.h5"))
        let originalWeights = try Checkpoint(contentsOf: TrialRunner.folder(of: trial, in: reference).appendingPathComponent("weights.h5"))
        #expect(resumedWeights.model.map(\.tensor) == originalWeights.model.map(\.tensor))
        #expect(resumedWeights.metadata["saved_epoch"] == originalWeights.metadata["saved_epoch"])
    }

    /// A finished trial whose `complete.json` was damaged afterwards (cut short, deleted), or that
    /// lost a file every reader needs (`metrics.json`), is moved to `damaged-trials/` with a line
    /// naming the file and what is wrong at which line, and the trial is trained again, to the same
    /// bits. Before, every resume retrained it and then failed to put it in place ("Directory not
    /// empty"), naming no file; a lost `metrics.json` left it "finished" for status and run, and so
    /// did a `weights.h5` cut short (export then failed on it).
    /// So is a changed byte inside a tensor (its Fletcher-32 checksum fails; found by reading the
    /// tensors, which run and status do) and a metrics.json edited to other scores than
    /// complete.json's (export chose by one, the leaderboard ranked by the other), and a
    /// `labels` attribute of `weights.h5` put in another order (it relabeled every prediction;
    /// HDF5 has no checksum for attributes, `metadata_sha256` is the checkpoint's own).
    /// A `provenance.json` that is JSON but not provenance (`{}`: export and compare could not
    /// read it, while run and status called the trial finished; trial 6) or of another seed is
    /// damage too.
    @Test(arguments: ["{", nil, "metrics.json", "weights.h5", "config.json", "flipped weights.h5", "edited metrics.json",
                      "relabeled weights.h5", "emptied provenance.json", "reseeded provenance.json"])
    func damagedCompletionMarkerIsSetAsideAndTheTrialTrainedAgain(damage: String?) throws {
        let scratch = try TemporaryDirectory(prefix: "damaged-marker")
        let plan = try SweepLimitsTests.plan(scratch: scratch.url, learningRate: 1e-3)
        let trial = try #require(plan.trials.first)
        let first = try TrialRunner().run(trial, in: scratch.url)
        let folder = TrialRunner.folder(of: trial, in: scratch.url)
        let weights = try Data(contentsOf: folder.appendingPathComponent("weights.h5"))
        try JSONEncoder().encode(SweepRecord(plan: plan)).write(to: scratch.url.appendingPathComponent(SweepRecord.fileName))
        try Leaderboard(plan: plan, folder: scratch.url).csvTable.csv
            .write(to: scratch.url.appendingPathComponent("leaderboard.csv"), atomically: true, encoding: .utf8)
        #expect(try SweepStatus(folder: scratch.url).reportsAreCurrent)
        let markerURL = folder.appendingPathComponent(TrialRunner.completionMarker)
        switch damage {
        case "metrics.json": try FileManager.default.removeItem(at: folder.appendingPathComponent("metrics.json"))
        case "weights.h5": try weights.prefix(weights.count / 2).write(to: folder.appendingPathComponent("weights.h5"))
        case "config.json": try Data("{\n  \"seed\": 1,\n".utf8).write(to: folder.appendingPathComponent("config.json"))
        case "flipped weights.h5":
            let tensors = try Checkpoint(contentsOf: folder.appendingPathComponent("weights.h5")).model.map(\.tensor)
            let tensor = try #require(tensors.max { $0.values.count < $1.values.count })
            let pattern = Data(tensor.values.prefix(4).flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian) { Array($0) } })
            var bytes = weights
            let at = try #require(bytes.range(of: pattern)).lowerBound
            bytes[at] ^= 0x01
            try bytes.write(to: folder.appendingPathComponent("weights.h5"))
        case "relabeled weights.h5":
            let url = folder.appendingPathComponent("weights.h5")
            let labels = try #require(try Checkpoint(contentsOf: url).metadata["labels"])
            let file = try HDF5File.open(at: url, mode: .readWrite)
            try file.root().attributes.write(
                String(decoding: try JSONEncoder().encode(try JSONDecoder().decode([String].self, from: Data(labels.utf8)).reversed()),
                       as: UTF8.self),
                named: "labels")
            try file.close()
        case "edited metrics.json":
            let url = folder.appendingPathComponent("metrics.json")
            var metrics = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: [String: Any]])
            metrics["test"]?["accuracy"] = 0.01
            try JSONSerialization.data(withJSONObject: metrics).write(to: url)
        case "emptied provenance.json": try Data("{}".utf8).write(to: folder.appendingPathComponent("provenance.json"))
        case "reseeded provenance.json":
            let url = folder.appendingPathComponent("provenance.json")
            var provenance = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            provenance["seed"] = 99
            try JSONSerialization.data(withJSONObject: provenance).write(to: url)
        case let marker?: try Data(marker.utf8).write(to: markerURL)
        case nil: try FileManager.default.removeItem(at: markerURL)
        }
        let damagedFile = damage.map { $0.split(separator: " ").last.map(String.init) ?? $0 }
            .map { $0.hasSuffix(".json") || $0.hasSuffix(".h5") ? $0 : TrialRunner.completionMarker } ?? TrialRunner.completionMarker
        #expect(TrialRunner.outcome(of: trial, in: scratch.url) == nil)
        // `status` says so, naming the file, where it said "not submitted" before; the leaderboard
        // written before counts the trial, so the reports are no longer current.
        let damagedStatus = try SweepStatus(folder: scratch.url)
        #expect(damagedStatus.rows.first?.state == .damaged, "\(damagedStatus.lines)")
        #expect(damagedStatus.lines.last?.hasSuffix("; reports not current") == true, "\(damagedStatus.lines)")
        #expect(damagedStatus.lines.first?.contains("trials/\(trial.id)/\(damagedFile)") == true, "\(damagedStatus.lines)")

        let lines = LogLines()
        let again = try TrialRunner(log: lines.append).run(trial, in: scratch.url)
        #expect(again == first)
        #expect(try Data(contentsOf: folder.appendingPathComponent("weights.h5")) == weights)
        #expect(TrialRunner.outcome(of: trial, in: scratch.url) == first)
        let line = try #require(lines.lines.first { $0.contains("moved its folder to \(TrialRunner.damagedFoldersName)/\(trial.id)-") },
                                "\(lines.lines)")
        #expect(line.contains("trials/\(trial.id)/\(damagedFile)"), "\(line)")
        if damage == "{" { #expect(line.contains(":1:"), "the line of the damage: \(line)") }
        if damage == "weights.h5" { #expect(line.contains("truncated"), "HDF5's reason: \(line)") }
        if damage == "config.json" { #expect(line.contains("config.json:3:"), "the line of the damage: \(line)") }
        if damage == "relabeled weights.h5" { #expect(line.contains("were changed after it was written"), "\(line)") }
        if damage == "emptied provenance.json" { #expect(line.contains("missing key 'actionlab_version'"), "\(line)") }
        if damage == "reseeded provenance.json" { #expect(line.contains("seed 99, where complete.json says seed"), "\(line)") }
        let damaged = try FileManager.default.contentsOfDirectory(
            atPath: scratch.url.appendingPathComponent(TrialRunner.damagedFoldersName).path)
        #expect(damaged.count == 1 && damaged[0].hasPrefix(trial.id))
        #expect(try SweepStatus(folder: scratch.url).rows.first?.state == .finished)
    }

    /// A sweep folder that lost `manifest.json5` and `resolved.json` (the records its page
    /// links): `status` notes both, and the next `run DIR` writes `resolved.json` again, the same
    /// bytes, from `sweep.json` (the manifest's own text cannot be rebuilt). Before, neither
    /// noticed (trial 3, F12).
    @Test func lostSweepRecordsAreNotedAndResolvedJSONWrittenAgain() throws {
        let scratch = try TemporaryDirectory(prefix: "lost-records")
        let plan = try SweepLimitsTests.plan(scratch: scratch.url, learningRate: 1e-3).adjusting { $0.training.epochs = 1 }
        let manifest = TestData.packageRoot.appendingPathComponent("experiments/basicmotions.json5")
        let folder = try SweepRunner(plan: plan, manifestURL: manifest).run(output: scratch.url.appendingPathComponent("sweep"))
        #expect(try SweepStatus(folder: folder).missingRecords.isEmpty)
        let resolved = folder.appendingPathComponent(SweepRecord.resolvedConfigurationName)
        let original = try Data(contentsOf: resolved)
        for name in [SweepRecord.manifestCopyName, SweepRecord.resolvedConfigurationName] {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let status = try SweepStatus(folder: folder)
        #expect(status.missingRecords == [SweepRecord.manifestCopyName, SweepRecord.resolvedConfigurationName])
        #expect(status.lines.contains { $0.hasPrefix("note: manifest.json5 is missing") }, "\(status.lines)")
        #expect(status.lines.contains { $0.hasPrefix("note: resolved.json is missing") }, "\(status.lines)")
        #expect(status.lines.last == "1 finished; reports current", "\(status.lines)")

        let lines = LogLines()
        _ = try SweepRunner.resuming(folder, log: lines.append).run(output: folder)
        #expect(try Data(contentsOf: resolved) == original)
        #expect(lines.lines.contains { $0.contains("resolved.json was missing; wrote it again from sweep.json") }, "\(lines.lines)")
        #expect(try SweepStatus(folder: folder).missingRecords == [SweepRecord.manifestCopyName])
    }

    /// `status` of a Slurm sweep where Slurm cannot be asked (the folder copied to a laptop, the
    /// controller down): what the folder records is shown, a trial whose task has not recorded its
    /// end is unknown, and a note says why. Before, the squeue error was all `status` printed.
    @Test func statusWithoutSlurmShowsWhatTheFolderRecords() throws {
        let scratch = try TemporaryDirectory(prefix: "status-no-slurm")
        let folder = scratch.url
        let plan = try SweepLimitsTests.plan(scratch: folder, learningRate: 1e-3)
            .adjusting { $0.training.seeds = [1, 2]; $0.training.epochs = 1 }
        try JSONEncoder().encode(SweepRecord(plan: plan)).write(to: folder.appendingPathComponent(SweepRecord.fileName))
        _ = try TrialRunner().run(plan.trials[0], in: folder)
        let record = SlurmSubmission.fileURL(in: folder)
        try FileManager.default.createDirectory(at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"[{"number": 1, "arrayJobID": "77", "reportJobID": "78", "tasks": [[0], [1]], "submitted": 0}]"#.utf8).write(to: record)
        #expect(try SlurmSubmission.all(in: folder).map(\.arrayJobID) == ["77"])

        let status = try SweepStatus(folder: folder, client: SlurmClient(searchPath: scratch.file("no-slurm-here").path))
        #expect(status.slurmProblem?.contains("squeue") == true, "\(status.slurmProblem ?? "nil")")
        #expect(status.rows.map(\.state) == [.finished, .unknown], "\(status.lines)")
        // Trial 0 was trained here, not by task 77_0 (its provenance has no Slurm job): not credited to it.
        #expect(status.rows.map(\.job) == [nil, "77_1"])
        #expect(status.lines.contains { $0.hasPrefix("note: Slurm cannot be asked about this folder's jobs") }, "\(status.lines)")
        #expect(status.lines.last == "1 finished, 1 unknown; reports not current", "\(status.lines)")
    }

    /// `status` names each Slurm trial as it stands (trial 4, finding 7, and finding 10's pending
    /// reason), with `squeue` answering from a script: a trial a local run finished is not
    /// credited to the Slurm task whose record is there; a task cancelled (exit 143) that left a
    /// checkpoint is interrupted, one that failed with exit 1 failed; a task cancelled while
    /// pending is "not started", without a log that does not exist; of a running task's two
    /// trials, the one waiting behind the other is pending, and of an ended task's, one it never
    /// reached is not started; a task that cannot start says why; a trial a local run trains, or
    /// left a checkpoint of, after its task ended is running or interrupted, not credited to the
    /// task (trial 5).
    @Test func statusNamesSlurmTrialsAsTheyStand() throws {
        let scratch = try TemporaryDirectory(prefix: "status-slurm")
        let folder = scratch.url
        let plan = try SweepLimitsTests.plan(scratch: folder, learningRate: 1e-3)
            .adjusting { $0.training.seeds = Array(1...11); $0.training.epochs = 1 }
        try JSONEncoder().encode(SweepRecord(plan: plan)).write(to: folder.appendingPathComponent(SweepRecord.fileName))
        _ = try TrialRunner().run(plan.trials[0], in: folder)
        let slurm = folder.appendingPathComponent(SlurmLauncher.folderName)
        for directory in ["tasks", "logs"] {
            try FileManager.default.createDirectory(at: slurm.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try Data(#"[{"number": 1, "arrayJobID": "77", "reportJobID": "78", "tasks": [[0], [1], [2], [3, 4], [5], [6], [7, 8], [9], [10]], "submitted": 0}]"#.utf8)
            .write(to: SlurmSubmission.fileURL(in: folder))
        for (task, status) in [(0, 143), (1, 143), (5, 1), (6, 143), (7, 143)] {
            try Data("\(status) vm\n".utf8).write(to: slurm.appendingPathComponent("tasks/77_\(task).exit"))
            try Data("log\n".utf8).write(to: slurm.appendingPathComponent("logs/77_\(task).out"))
        }
        for trial in [plan.trials[1], plan.trials[6], plan.trials[7], plan.trials[10]] {
            let partial = folder.appendingPathComponent("trials/\(trial.id).partial-4194305")
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            try Data().write(to: partial.appendingPathComponent(TrialRunner.checkpointName))
        }
        let claim = try #require(try TrialClaim.claimIfFree(plan.trials[3], in: folder))
        defer { claim.release() }
        let localClaim = try #require(try TrialClaim.claimIfFree(plan.trials[9], in: folder))
        defer { localClaim.release() }
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let squeue = bin.appendingPathComponent("squeue")
        try Data("#!/bin/sh\nprintf '77|3|RUNNING|vm|None\\n77|4|PENDING||PartitionConfig\\n'\n".utf8).write(to: squeue)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: squeue.path)

        let status = try SweepStatus(folder: folder, client: SlurmClient(searchPath: bin.path))
        #expect(status.slurmProblem == nil, "\(status.slurmProblem ?? "")")
        #expect(status.rows.map(\.state) == [
            .finished, .interrupted, .notStarted, .running, .pending, .pending, .failed, .interrupted, .notStarted, .running, .interrupted,
        ], "\(status.lines)")
        #expect(status.rows.map(\.job) == [nil, "77_1", "77_2", "77_3", "77_3", "77_4", "77_5", "77_6", "77_6", nil, "77_8"], "\(status.lines)")
        #expect(status.rows[8].slurmState == "its task ended during trial 7: exit 143 on vm")
        #expect(status.rows[9].log == nil && status.rows[9].slurmState == nil)
        #expect(status.rows[1].slurmState == "exit 143 on vm")
        #expect(status.rows[2].log == nil)
        #expect(status.rows[4].slurmState == "RUNNING; waits for trial 3 in the same task")
        #expect(status.rows[5].slurmState?.hasPrefix("PENDING: PartitionConfig, it asks more than the partition's nodes have") == true)
        #expect(status.rows[5].log == nil, "a pending task has written no log yet")
        #expect(status.rows[6].slurmState == "exit 1 on vm")
        #expect(status.lines.last == "1 finished, 2 running, 2 pending, 1 failed, 3 interrupted, 2 not started; reports not current",
                "\(status.lines)")
    }

    /// `status` of a sweep run here, without Slurm: a trial whose claim a process holds is
    /// running, one whose killed run left a checkpoint is interrupted, the others not submitted.
    /// Before, all three were "not submitted".
    @Test func statusShowsLocalRunningAndInterruptedTrials() throws {
        let scratch = try TemporaryDirectory(prefix: "status")
        let folder = scratch.url
        let plan = try SweepLimitsTests.plan(scratch: folder, learningRate: 1e-3).adjusting { $0.training.seeds = [1, 2, 3] }
        try JSONEncoder().encode(SweepRecord(plan: plan)).write(to: folder.appendingPathComponent(SweepRecord.fileName))
        let (running, interrupted, untouched) = (plan.trials[0], plan.trials[1], plan.trials[2])
        let claim = try #require(try TrialClaim.claimIfFree(running, in: folder))
        let partial = folder.appendingPathComponent("trials/\(interrupted.id).partial-4194305")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data().write(to: partial.appendingPathComponent(TrialRunner.checkpointName))

        let status = try SweepStatus(folder: folder)
        #expect(status.rows.map(\.state) == [.running, .interrupted, .notSubmitted], "\(status.lines)")
        #expect(status.lines.last == "1 running, 1 interrupted, 1 not submitted; reports not current")
        #expect(!TrialClaim.isHeld(untouched, in: folder))
        claim.release()
        #expect(try SweepStatus(folder: folder).rows.map(\.state) == [.notSubmitted, .interrupted, .notSubmitted])
        #expect(!FileManager.default.fileExists(atPath: TrialClaim.lockFile(of: untouched, in: folder).path), "status creates nothing")
    }

    /// Early stopping ends the run after `patience` epochs without improvement and restores the
    /// best epoch's weights, which curves.md names.
    @Test func earlyStoppingRestoresTheBestEpoch() throws {
        let scratch = try TemporaryDirectory(prefix: "early-stopping")
        var configuration = try Self.plan(scratch: scratch.url).base
        configuration.training.epochs = 60
        configuration.training.earlyStopping = EarlyStoppingConfiguration(metric: .validationLoss, patience: 3, minimumDelta: 0.05)
        let (train, validation) = try Self.windows(configuration)
        let result = try Trainer(configuration: configuration).fit(train: train, validation: validation, seed: 3)
        #expect(result.stoppedEarly)
        #expect(result.history.count == result.savedEpoch + 3, "stops 3 epochs after the best")
        let losses = result.history.compactMap(\.validationLoss)
        #expect(losses[result.savedEpoch - 1] <= losses.min().map { $0 + 0.05 } ?? 0)
        let report = RunReport(seed: 3, history: result.history, metrics: [:], savedEpoch: result.savedEpoch)
        #expect(report.curvesMarkdown.contains("the saved weights are those after epoch \(result.savedEpoch)"))
    }
}
