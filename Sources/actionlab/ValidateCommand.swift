import Foundation
import Reports
import Sweeps

/// `actionlab validate MANIFEST [--data]`: checks a manifest and every grid cell of its sweep
/// without writing a report, and prints the resolved configuration, the grid and the trials it
/// would run. With `--data` it also imports the data (through the feature cache) and runs the
/// checks `run` makes before training.
enum ValidateCommand: Subcommand {
    static let version = "actionlab \(Provenance.actionlabVersion)"

    static let manifest = PositionalArgument(
        "MANIFEST", help: "the experiment manifest (JSON5); relative paths inside it resolve against the current directory")
    static let data = CommandOption.flag(
        "data", help: "also import the data (into the feature cache, the one thing it writes) and run the checks `run` makes "
            + "before training, printing the windows per split and label")

    static let specification = CommandSpecification(
        name: "validate",
        abstract: "check a manifest and every grid cell of its sweep, writing no report; print the resolved configuration, "
            + "the grid and the trials it would run",
        discussion: [
            "Every problem is reported at once, each with its file, line, column and JSON path; exit status 1 if there "
                + "is any.",
        ],
        arguments: [manifest], options: [data])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let plan = try loadPlan(URL(fileURLWithPath: try parsed.value(of: manifest)))
            print(plan.base.planDescription(), terminator: "")
            print(plan.gridDescription())
            if let warning = plan.threadWarning() { Console.error(warning) }
            if parsed.isSet(data) {
                let lines = try SweepRunner(plan: plan, manifestURL: nil, log: Console.progress).checkData()
                print("Data (imported or read from the feature cache, checked against the windows):")
                for line in lines { print("  " + line) }
                print()
            }
            print("resolved configuration (without grid values):")
            print(plan.base.resolvedJSON())
        }
    }

    /// Loads a manifest with paths resolved against the current directory.
    /// - Throws: `SweepError.unreadableManifest`, `ManifestError` listing every problem,
    ///   or the JSON5 parse error.
    static func loadPlan(_ url: URL) throws -> SweepPlan {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try SweepPlan.load(contentsOf: url, baseDirectory: base)
    }
}
