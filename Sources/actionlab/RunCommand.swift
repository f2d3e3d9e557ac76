import Foundation
import Sweeps

/// `actionlab run MANIFEST [--output DIR] [--jobs N] [--threads N]` and `actionlab run SWEEP_DIR`:
/// runs every trial (a manifest without a sweep has one per seed), resuming a folder that holds
/// the same sweep, and prints the sweep folder on standard output when done.
///
/// `--threads N` overrides the manifest's `training.threads` (compute threads per trial: layers
/// split each operation between them). A given thread count gives bit-identical results run after
/// run; another count rounds differently, which training amplifies (metrics agree statistically,
/// weights do not). A sweep folder resumes with its own thread count.
enum RunCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["output", "jobs", "threads"], flags: ["prepare"])
            let target = URL(fileURLWithPath: try parsed.singlePositional("MANIFEST or SWEEP_DIR"))
            let jobs = try parsed.positiveInteger("jobs") ?? 1
            let threads = try parsed.positiveInteger("threads")
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) && isDirectory.boolValue
            if isFolder && parsed.options["output"] != nil {
                throw UsageError("--output goes with a manifest; a sweep folder is resumed in place")
            }
            if isFolder && threads != nil {
                throw UsageError(
                    "--threads goes with a manifest: a sweep folder resumes with the thread count its trials were "
                        + "made with (training.threads is part of each trial's configuration and id)")
            }
            var runner = isFolder
                ? try SweepRunner.resuming(target, log: Console.progress)
                : SweepRunner(plan: try ValidateCommand.loadPlan(target), manifestURL: target, log: Console.progress)
            if let threads {
                runner.plan = try runner.plan.adjusting { $0.training.threads = threads }
            }
            let output = isFolder ? target : parsed.options["output"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            let folder = try runner.run(
                output: output, jobs: jobs, workerExecutable: Console.executable, prepareOnly: parsed.options["prepare"] != nil)
            print(folder.path)
        }
    }
}
