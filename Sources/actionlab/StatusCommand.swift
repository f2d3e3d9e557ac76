import Foundation
import Sweeps

/// `actionlab status DIR`: where every trial stands (finished, running, pending, failed,
/// interrupted, damaged or not submitted), with its Slurm task, state and log when the sweep was submitted with
/// `run --launcher slurm`, and whether the reports are current; or, given the job folder of
/// `extract --launcher slurm`, where each of its array tasks stands.
enum StatusCommand: Subcommand {
    static let sweep = PositionalArgument(
        "DIR", help: "a sweep folder made by `actionlab run`, or the job folder of `actionlab extract --launcher slurm`")

    static let specification = CommandSpecification(
        name: "status",
        abstract: "show every trial of a sweep folder: finished, running, pending, failed, interrupted, damaged, not started "
            + "or not submitted, with its Slurm job and task, state and log (after run --launcher slurm), and whether the reports are current; "
            + "or each array task of an extract --launcher slurm job folder",
        arguments: [sweep])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let folder = URL(fileURLWithPath: try parsed.value(of: sweep), isDirectory: true)
            if let extraction = try SlurmExtractionRecord.load(from: folder) {
                for line in try extraction.statusLines(folder: folder) { print(line) }
                return
            }
            for line in try SweepStatus(folder: folder).lines { print(line) }
        }
    }
}
