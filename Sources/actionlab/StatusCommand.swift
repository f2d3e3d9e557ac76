import Foundation
import Sweeps

/// `actionlab status SWEEP_DIR`: where every trial stands (finished, running, pending, failed,
/// not submitted), with its Slurm task, state and log when the sweep was submitted with
/// `run --launcher slurm`, and whether the reports are current.
enum StatusCommand: Subcommand {
    static let sweep = PositionalArgument("SWEEP_DIR", help: "a sweep folder made by `actionlab run`")

    static let specification = CommandSpecification(
        name: "status",
        abstract: "show every trial of a sweep folder: finished, running, pending, failed or not submitted, with its "
            + "Slurm job and task, state and log (after run --launcher slurm), and whether the reports are current",
        arguments: [sweep])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let status = try SweepStatus(folder: URL(fileURLWithPath: try parsed.value(of: sweep), isDirectory: true))
            for line in status.lines { print(line) }
        }
    }
}
