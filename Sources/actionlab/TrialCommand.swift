import Foundation
import Sweeps

/// `actionlab trial SWEEP_DIR INDEX [INDEX...]`: runs trials of a sweep folder made by
/// `actionlab run`, one after another in this process, so that worker processes and cluster
/// schedulers (a Slurm array task per index) can run trials independently. A finished trial is
/// not run again.
enum TrialCommand: Subcommand {
    static let sweep = PositionalArgument("SWEEP_DIR", help: "a sweep folder made by `actionlab run` (or `run --prepare`)")
    static let indices = PositionalArgument(
        "INDEX", help: "the index of a trial in the sweep: a whole number from 0", isRepeated: true)

    static let specification = CommandSpecification(
        name: "trial",
        abstract: "run trials of a sweep folder, one after another in this process, so that worker processes and "
            + "cluster schedulers (a Slurm array task per index) run trials independently; a finished trial is not run again",
        arguments: [sweep, indices],
        tooFewArguments: { _ in "expected \(sweep.name) and one or more trial \(indices.name) values (whole numbers from 0)" })

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let indices = try parsed.values(of: Self.indices).map { text in
                guard let index = Int(text), index >= 0 else {
                    throw UsageError("'\(text)' is not a trial index: expected a whole number from 0")
                }
                return index
            }
            try SweepRunner.runTrials(
                indices: indices, in: URL(fileURLWithPath: try parsed.value(of: sweep), isDirectory: true), log: Console.progress)
        }
    }
}
