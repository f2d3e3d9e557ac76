import Foundation
import Manifest
import Sweeps

/// `actionlab run MANIFEST [--output DIR] [--jobs N] [--threads N] [--workers N] [--prepare]` and
/// `actionlab run SWEEP_DIR [--jobs N] [--workers N]`: runs every trial (a manifest without a sweep has one per
/// seed), resuming a folder that holds the same sweep, and prints the sweep folder on standard
/// output when done.
///
/// `--threads N` overrides the manifest's `training.threads` (compute threads per trial: layers
/// split each operation between them). A given thread count gives bit-identical results run after
/// run; another count rounds differently, which training amplifies (metrics agree statistically,
/// weights do not). A sweep folder resumes with its own thread count.
enum RunCommand: Subcommand {
    static let target = PositionalArgument(
        "MANIFEST|SWEEP_DIR",
        help: "a manifest, whose sweep runs in a new folder (or resumes in the --output folder if it holds the same "
            + "sweep); or a sweep folder made by `run`, resumed in place with its own settings: finished trials are kept")
    static let output = CommandOption.text(
        "output", valueName: "DIR", help: "the sweep folder (default: <output.directory>/<name>/<UTC time>); with a manifest only")
    static let jobs = CommandOption.positiveInteger(
        "jobs", valueName: "N",
        help: "trials at once, in worker processes (default 1); the results are identical whatever N")
    static let threads = CommandOption.positiveInteger(
        "threads", valueName: "N",
        help: "compute threads per trial, default training.threads (layers split each operation between them); "
            + "bit-identical results for a given N, while another N rounds sums differently, which training "
            + "amplifies: metrics agree statistically, weights do not. N is part of each trial's configuration "
            + "and id, so it goes with a manifest only: a sweep folder resumes with its own")
    static let workers = CommandOption.positiveInteger(
        "workers", valueName: "N",
        help: "videos extracted at once while the data are loaded, each with its own pose landmarker (default "
            + "features.workers, else the processors available); the extracted poses, trial ids and results are identical whatever N")
    static let prepare = CommandOption.flag(
        "prepare", help: "create the sweep folder and cache the data, run no trial (then `actionlab trial` runs "
            + "the trials, for example as cluster array tasks)")

    static let reportsOnly = CommandOption.flag(
        "reports-only", help: "with a sweep folder: write the leaderboard, summary and charts of the trials that have "
            + "finished, run none (the Slurm launcher's report job)")
    static let trialsPerTask = CommandOption.positiveInteger(
        "trials-per-task", valueName: "N",
        help: "with --launcher slurm: trials each array task runs one after another (default 1, more above 1000 trials)")

    static let specification = CommandSpecification(
        name: "run",
        abstract: "run every trial (grid cell × seed) of a manifest, then write the leaderboard and summary and "
            + "print the sweep folder; given a sweep folder, resume it: finished trials are kept. Ctrl-C or killing "
            + "`run` also ends its workers",
        arguments: [target],
        options: [output, jobs, threads, workers, prepare, reportsOnly, SlurmOptions.launcher] + SlurmOptions.resources + [trialsPerTask])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let target = URL(fileURLWithPath: try parsed.value(of: Self.target))
            let jobs = try parsed.value(of: Self.jobs) ?? 1
            let threads = try parsed.value(of: Self.threads)
            if let threads, threads > TrainingConfiguration.maximumThreads {
                throw UsageError("\(Self.threads.declaration.spelling) takes at most \(TrainingConfiguration.maximumThreads) threads, found \(threads)")
            }
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) && isDirectory.boolValue
            let output = try parsed.value(of: Self.output)
            if isFolder && output != nil {
                throw UsageError("\(Self.output.declaration.spelling) goes with a manifest; a sweep folder is resumed in place")
            }
            if isFolder && threads != nil {
                throw UsageError(
                    "\(Self.threads.declaration.spelling) goes with a manifest: a sweep folder resumes with the thread count "
                        + "its trials were made with (training.threads is part of each trial's configuration and id)")
            }
            if parsed.isSet(reportsOnly) {
                guard isFolder else { throw UsageError("\(Self.reportsOnly.declaration.spelling) goes with a sweep folder") }
                try SweepRunner.resuming(target, log: Console.progress).writeReports(target)
                print(target.path)
                return
            }
            let given = try SlurmOptions.givenKind(parsed, slurmOnly: [trialsPerTask])
            let givenOptions = try SlurmOptions.options(parsed, trialsPerTask: try parsed.value(of: trialsPerTask))
            let localOnly = parsed.isGiven(Self.jobs) || parsed.isSet(prepare)
            if given == .slurm && localOnly {
                throw UsageError("--launcher slurm runs the trials as a job array: --jobs and --prepare go with the local launcher")
            }
            let outputFolder = isFolder ? target : output.map { URL(fileURLWithPath: $0, isDirectory: true) }
            let plan = isFolder ? nil : try ValidateCommand.loadPlan(target)
            // The sweep folder: the one given, or a manifest's --output folder that exists (both resume it).
            let existingFolder = isFolder ? target : outputFolder.flatMap { folder -> URL? in
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(SweepRecord.fileName).path) ? folder : nil
            }
            // Its Slurm records, unless told to run here (which needs none of them, damaged or not).
            let submissions = given == .local ? [] : try existingFolder.map { try SlurmSubmission.all(in: $0) } ?? []
            // The folder's latest submission to Slurm, accepted or not: its resources, and that
            // the folder was given to Slurm.
            let attempt = given == .local ? nil : try existingFolder.flatMap { try SlurmAttempt.latest(in: $0) }
            let givenToSlurm = attempt != nil || !submissions.isEmpty
            // The manifest's launcher section, or that of the manifest the folder was made from.
            let manifestLauncher = plan?.launcher ?? (isFolder ? LauncherConfiguration.ofManifest(in: target) : nil)
            // --launcher, else local for --jobs and --prepare, else Slurm for a folder given to it
            // (even if sbatch refused; also when named by its manifest and --output), else the manifest's.
            let kind = given ?? (localOnly ? .local : nil) ?? (givenToSlurm ? .slurm : nil) ?? manifestLauncher?.kind ?? .local
            try SlurmOptions.check(kind, parsed, slurmOnly: [trialsPerTask])
            /// The runner of `target`: a new sweep of the manifest, or the folder's own.
            func runner(log: @escaping @Sendable (String) -> Void) throws -> SweepRunner {
                var runner = try plan.map { SweepRunner(plan: $0, manifestURL: target, log: log) }
                    ?? SweepRunner.resuming(target, log: log)
                if let threads {
                    runner.plan = try runner.plan.adjusting { $0.training.threads = threads }
                }
                if let workers = try parsed.value(of: Self.workers) {
                    runner.plan = try runner.plan.adjusting { $0.features.workers = workers }
                }
                return runner
            }
            if kind == .slurm {
                // The command line's options, else those of the manifest's Slurm launcher section,
                // else those of the folder's latest submission (tried or accepted), else those of
                // the manifest the folder was made from.
                let manifestSlurm = plan.flatMap { $0.launcher.kind == .slurm ? $0.launcher.slurm : nil }
                let recorded: (options: SlurmJobScript.Options, file: URL)? = manifestSlurm != nil ? nil : existingFolder.flatMap { folder in
                    attempt.map { ($0.options, SlurmAttempt.fileURL(in: folder)) }
                        ?? submissions.last?.options.map { ($0, SlurmSubmission.fileURL(in: folder)) }
                }
                let base = manifestSlurm ?? recorded?.options ?? manifestLauncher?.slurm ?? SlurmJobScript.Options()
                let options = LauncherConfiguration(kind: .slurm, slurm: base)
                    .overridden(by: givenOptions)
                // The command line and the manifest are checked as they are read; a folder's
                // record is checked here, before any of it goes into a job script.
                if let recorded, !options.problems.isEmpty {
                    throw SweepError.slurmRecord(
                        path: recorded.file.path,
                        reason: "the resources it records cannot go into a job script: \(options.problems.joined(separator: "; ")); "
                            + "give others on the command line (--time, --partition, --mem, --sbatch-arg and the others replace "
                            + "them key by key), or delete the file")
                }
                let executable = try SlurmOptions.executable()
                let slurmRunner = try runner(log: Console.progress)
                let folder = try slurmRunner.run(output: outputFolder, prepareOnly: true)
                let submitted: SlurmSubmission?
                do {
                    submitted = try SlurmLauncher(options: options, executable: executable).submit(folder, log: Console.progress)
                } catch let error as SlurmClient.SlurmError {
                    // The folder is prepared: say how to go on from it once the cause is fixed.
                    Console.progress("sweep \(folder.path) is prepared but not submitted; once the cause below is fixed, "
                        + "'actionlab run \(folder.path)' submits it with the same resources (options given then replace them), "
                        + "'--launcher local' trains it here")
                    throw error
                }
                if let submission = submitted {
                    Console.progress("job array \(submission.arrayJobID)"
                        + (submission.reportJobID.isEmpty ? "" : ", report job \(submission.reportJobID)")
                        + "; 'actionlab status \(folder.path)' shows the trials")
                } else {
                    // Nothing to submit: every trial finished (the reports are written here if the
                    // report job did not) or is queued.
                    let status = try SweepStatus(folder: folder)
                    if !status.reportsAreCurrent, status.rows.allSatisfy({ $0.state == .finished }) {
                        try slurmRunner.writeReports(folder)
                    }
                }
                print(folder.path)
                return
            }
            let display = SweepProgressDisplay()
            defer { display.end() }
            var local = try runner(log: { display.log($0) })
            local.observer = display.observer
            local.folderReady = { folder in
                // A folder given to Slurm resumes on Slurm unless told otherwise.
                let resume = "actionlab run \(folder.path)" + (givenToSlurm ? " --launcher local" : "")
                Console.onInterruption(say: "interrupted: finished trials are kept, and a trial's checkpoint; resume with "
                    + "'\(resume)'")
            }
            let folder = try local.run(
                output: outputFolder, jobs: jobs, workerExecutable: Console.executable, prepareOnly: parsed.isSet(prepare))
            print(folder.path)
        }
    }
}
