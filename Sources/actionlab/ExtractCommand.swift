import Dataset
import FeatureCache
import Foundation

/// `actionlab extract MANIFEST`: extracts the poses of every video the manifest names (all
/// splits and grid cells) into the feature cache, with progress, then prints a summary; exit
/// status 1 if any video failed (after extracting the others).
enum ExtractCommand: Subcommand {
    static let manifest = PositionalArgument("MANIFEST", help: "the experiment manifest whose video sources are extracted")

    static let specification = CommandSpecification(
        name: "extract",
        abstract: "extract the poses of every video source (all splits and grid cells) into the feature cache, then "
            + "print the cache hits, new extractions and failures; exit status 1 if a video failed (after extracting the rest)",
        discussion: [
            "Progress goes to standard error: a progress bar on a terminal (videos done/total, frames/s, ETA), one "
                + "line per video otherwise. A cache entry that fails its checksum or cannot be read is moved aside, reported and extracted again.",
        ],
        arguments: [manifest])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        var failed = false
        let status = Console.exitStatus(specification) {
            let parsed = try CommandLineArguments(arguments, for: specification)
            let plan = try ValidateCommand.loadPlan(URL(fileURLWithPath: try parsed.value(of: manifest)))
            let cache = try FeatureCache(directory: plan.base.features.cache) { discarded in
                Console.progress("warning: \(discarded)")
            }
            let videos = ManifestVideos(configurations: plan.cells)
            Console.progress("\(videos.videos.count) video\(videos.videos.count == 1 ? "" : "s") to extract into \(cache.directory.path)")
            let display = ProgressDisplay()
            let summary = VideoExtractionRun(videos: videos, cache: cache).run(onEvent: display.handle)
            print("videos: \(videos.videos.count), cache hits: \(summary.cacheHits), new extractions: \(summary.extracted) "
                + "(\(summary.framesExtracted) frames), failures: \(summary.failures.count)")
            for failure in summary.failures { Console.error("failed: \(failure)") }
            failed = !summary.failures.isEmpty
        }
        return status == 0 && failed ? 1 : status
    }
}
