import Experiment
import Foundation

/// `actionlab run MANIFEST [--output DIR]`: trains and evaluates every seed and writes the
/// report; prints the report folder on standard output when done.
enum RunCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["output"])
            let manifest = URL(fileURLWithPath: try parsed.singlePositional("MANIFEST"))
            let configuration = try ValidateCommand.loadManifest(manifest)
            let runner = ExperimentRunner(configuration: configuration, manifestURL: manifest, log: Console.progress)
            let output = parsed.options["output"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            let folder = try runner.run(output: output)
            Console.progress("report: \(folder.appendingPathComponent("summary.md").path)")
            print(folder.path)
        }
    }
}
