import Foundation
import Sweeps

/// `actionlab trial SWEEP_DIR INDEX [INDEX...]`: runs trials of a sweep folder made by
/// `actionlab run`, one after another in this process, so that worker processes and cluster
/// schedulers (a Slurm array task per index) can run trials independently. A finished trial is
/// not run again.
enum TrialCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: [])
            guard parsed.positionals.count >= 2 else {
                throw UsageError("expected SWEEP_DIR and one or more trial INDEX values (whole numbers from 0)")
            }
            let indices = try parsed.positionals.dropFirst().map { text in
                guard let index = Int(text), index >= 0 else {
                    throw UsageError("'\(text)' is not a trial index: expected a whole number from 0")
                }
                return index
            }
            try SweepRunner.runTrials(
                indices: indices, in: URL(fileURLWithPath: parsed.positionals[0], isDirectory: true), log: Console.progress)
        }
    }
}
