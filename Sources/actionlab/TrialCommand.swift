import Experiment
import Foundation

/// `actionlab trial SWEEP_DIR INDEX`: runs one trial of a sweep folder made by `actionlab run`,
/// so that worker processes and cluster schedulers (a Slurm array task per index) can run
/// trials independently. A finished trial is not run again.
enum TrialCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: [])
            guard parsed.positionals.count == 2, let index = Int(parsed.positionals[1]), index >= 0 else {
                throw UsageError("expected SWEEP_DIR and a trial INDEX (a whole number from 0)")
            }
            try SweepRunner.runTrial(index: index, in: URL(fileURLWithPath: parsed.positionals[0], isDirectory: true), log: Console.progress)
        }
    }
}
