import Dataset
import FeatureCache
import Foundation

/// `actionlab extract MANIFEST`: extracts the poses of every video the manifest names (all
/// splits and grid cells) into the feature cache, with progress, then prints a summary; exit
/// status 1 if any video failed (after extracting the others).
enum ExtractCommand {
    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        var failed = false
        let status = Console.exitStatus {
            let parsed = try CommandLineArguments(arguments, valueOptions: [])
            let plan = try ValidateCommand.loadPlan(URL(fileURLWithPath: try parsed.singlePositional("MANIFEST")))
            let cache = try FeatureCache(directory: plan.base.features.cache) { url, error in
                Console.progress("warning: \(url.path) was unreadable and was set aside; extracting again (\(error))")
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
