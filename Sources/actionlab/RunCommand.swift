import Experiment
import Foundation

/// `actionlab run MANIFEST [--output DIR] [--threads N]`: trains and evaluates every seed and
/// writes the report; prints the report folder on standard output when done.
///
/// `--threads N` overrides the manifest's `training.threads` (BLAS threads per run). A given
/// thread count gives bit-identical results run after run.
enum RunCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["output", "threads"])
            let manifest = URL(fileURLWithPath: try parsed.singlePositional("MANIFEST"))
            let threads = try parsed.options["threads"].map { value in
                guard let count = Int(value), count >= 1 else {
                    throw UsageError("--threads needs a whole number of at least 1, got '\(value)'")
                }
                return count
            }
            var configuration = try ValidateCommand.loadManifest(manifest)
            if let threads { configuration.training.threads = threads }
            let runner = ExperimentRunner(configuration: configuration, manifestURL: manifest, log: Console.progress)
            let output = parsed.options["output"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            let folder = try runner.run(output: output)
            Console.progress("report: \(folder.appendingPathComponent("summary.md").path)")
            print(folder.path)
        }
    }
}
