import AtomicFiles
import Dataset
import Export
import FeatureCache
import Foundation
import Reports

/// `actionlab check MANIFEST [--output DIR]`: Create ML's training-data checklist for the
/// manifest's videos, written as `check.md`, `videos.csv` and `labels.csv` (each atomically) to
/// DIR, by default `<output.directory>/<name>/check/`. Prints the Markdown report's path; exits
/// with status 1 when a video failed, after writing the report.
enum CheckCommand: Subcommand {
    static let manifest = PositionalArgument("MANIFEST", help: "the experiment manifest whose videos are checked")
    static let output = CommandOption.text(
        "output", valueName: "DIR", help: "the folder to write into (default: <output.directory>/<name>/check)")

    static let specification = CommandSpecification(
        name: "check",
        abstract: "Create ML's training-data checklist of the videos (extracting what the cache lacks), written as "
            + "DIR/check.md, videos.csv and labels.csv; print the path of check.md; exit status 1 if a video failed "
            + "(after writing the report)",
        arguments: [manifest], options: [output])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(overInputs: specification) { () throws -> Bool in
            let parsed = try CommandLineArguments(arguments, for: specification)
            let plan = try ValidateCommand.loadPlan(URL(fileURLWithPath: try parsed.value(of: manifest)))
            let configuration = plan.base
            let folder = try parsed.value(of: output).map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? configuration.output.directory.appendingPathComponent(configuration.name).appendingPathComponent("check")
            // Not into a folder another command wrote (a sweep, trial, export or predictions folder).
            if let (kind, marker) = ActionLabFolderKind.kinds(of: folder).first {
                throw ReportError.writeFailed(
                    path: folder.path, reason: "it is \(kind) (it holds \(marker)); check writes into a folder of its own (--output DIR)")
            }
            // As `extract`: a manifest without videos has nothing to check (an empty report said "Flags: None").
            let listing = ManifestVideos(configurations: [configuration])
            guard !listing.videos.isEmpty || !listing.listingFailures.isEmpty else {
                let formats = Set(configuration.dataset.sources.map(\.format.rawValue)).sorted().joined(separator: ", ")
                throw UsageError("\(try parsed.value(of: manifest)) names no video to check (its sources: \(formats)); "
                    + "check looks at the videos and pictures of `video` and `montage` sources")
            }
            let cache = try FeatureCache(directory: configuration.features.cache) { Console.progress("warning: \($0)") }
            Console.progress("checking the videos of \(configuration.name) (extracting what the cache lacks)")
            let check = TrainingDataCheck(configuration: configuration, cache: cache)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(check.markdown(), to: folder.appendingPathComponent("check.md"))
                try AtomicFile.write(check.videosCSV(), to: folder.appendingPathComponent("videos.csv"))
                try AtomicFile.write(check.labelsCSV(), to: folder.appendingPathComponent("labels.csv"))
            } catch {
                throw ReportError.writeFailed(path: folder.path, reason: ReportError.reason(error))
            }
            for flag in check.flags { Console.progress("flag: \(flag)") }
            for failure in check.failures { Console.error("failed: \(failure)") }
            print(folder.appendingPathComponent("check.md").path)
            // As `extract`: a video that failed makes the status 1, after the report is written.
            return !check.failures.isEmpty
        }
    }
}
