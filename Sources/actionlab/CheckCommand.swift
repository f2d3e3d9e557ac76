import AtomicFiles
import Dataset
import FeatureCache
import Foundation
import Reports

/// `actionlab check MANIFEST [--output DIR]`: Create ML's training-data checklist for the
/// manifest's videos, written as `check.md`, `videos.csv` and `labels.csv` (each atomically) to
/// DIR, by default `<output.directory>/<name>/check/`. Prints the Markdown report's path.
enum CheckCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: ["output"])
            let plan = try ValidateCommand.loadPlan(URL(fileURLWithPath: try parsed.singlePositional("MANIFEST")))
            let configuration = plan.base
            let folder = parsed.options["output"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? configuration.output.directory.appendingPathComponent(configuration.name).appendingPathComponent("check")
            let cache = try FeatureCache(directory: configuration.features.cache)
            Console.progress("checking the videos of \(configuration.name) (extracting what the cache lacks)")
            let check = TrainingDataCheck(configuration: configuration, cache: cache)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(check.markdown(), to: folder.appendingPathComponent("check.md"))
                try AtomicFile.write(check.videosCSV(), to: folder.appendingPathComponent("videos.csv"))
                try AtomicFile.write(check.labelsCSV(), to: folder.appendingPathComponent("labels.csv"))
            } catch {
                throw ReportError.writeFailed(path: folder.path, reason: "\(error)")
            }
            for flag in check.flags { Console.progress("flag: \(flag)") }
            for failure in check.failures { Console.error("failed: \(failure)") }
            print(folder.appendingPathComponent("check.md").path)
        }
    }
}
