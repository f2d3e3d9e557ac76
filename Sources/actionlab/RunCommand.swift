import Foundation
import Sweeps

/// `actionlab run MANIFEST [--output DIR] [--jobs N] [--threads N] [--prepare]` and
/// `actionlab run SWEEP_DIR [--jobs N]`: runs every trial (a manifest without a sweep has one per
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
    static let prepare = CommandOption.flag(
        "prepare", help: "create the sweep folder and cache the data, run no trial (then `actionlab trial` runs "
            + "the trials, for example as cluster array tasks)")

    static let specification = CommandSpecification(
        name: "run",
        abstract: "run every trial (grid cell × seed) of a manifest, then write the leaderboard and summary and "
            + "print the sweep folder; given a sweep folder, resume it: finished trials are kept. Ctrl-C or killing "
            + "`run` also ends its workers",
        arguments: [target], options: [output, jobs, threads, prepare])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let target = URL(fileURLWithPath: try parsed.value(of: Self.target))
            let jobs = try parsed.value(of: Self.jobs) ?? 1
            let threads = try parsed.value(of: Self.threads)
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
            let display = SweepProgressDisplay()
            defer { display.end() }
            var runner = isFolder
                ? try SweepRunner.resuming(target, log: { display.log($0) })
                : SweepRunner(plan: try ValidateCommand.loadPlan(target), manifestURL: target, log: { display.log($0) })
            runner.observer = display.observer
            if let threads {
                runner.plan = try runner.plan.adjusting { $0.training.threads = threads }
            }
            let folder = try runner.run(
                output: isFolder ? target : output.map { URL(fileURLWithPath: $0, isDirectory: true) }, jobs: jobs,
                workerExecutable: Console.executable, prepareOnly: parsed.isSet(prepare))
            print(folder.path)
        }
    }
}
