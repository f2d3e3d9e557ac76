import Experiment
import Foundation

/// `actionlab validate MANIFEST`: checks a manifest without touching data or writing anything,
/// and prints the resolved configuration and the runs it would make.
enum ValidateCommand {
    static let version = "actionlab \(Provenance.actionlabVersion)"

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: [])
            let manifest = URL(fileURLWithPath: try parsed.singlePositional("MANIFEST"))
            let configuration = try loadManifest(manifest)
            print(configuration.planDescription())
            print("\nresolved configuration:")
            print(configuration.resolvedJSON())
        }
    }

    /// Loads a manifest with paths resolved against the current directory.
    /// - Throws: `ManifestError` listing every problem, or the JSON5 parse error.
    static func loadManifest(_ url: URL) throws -> ExperimentConfiguration {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw UsageError("manifest \(url.path) does not exist")
        }
        return try ExperimentConfiguration.load(contentsOf: url, baseDirectory: base)
    }
}
