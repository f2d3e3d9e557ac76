import Dataset
import FeatureCache
import Foundation
import Sweeps

/// `actionlab extract MANIFEST [--shard I/N] [--workers N]`: extracts the poses of every video the
/// manifest names (all splits and grid cells) into the feature cache, N at a time, with progress,
/// then prints a summary; exit status 1 if any video failed (after extracting the others).
///
/// `--launcher slurm` submits the extraction as a job array instead (``SlurmLauncher/submitExtraction(manifest:shards:jobFolder:name:)``):
/// task `k` of `n` runs `extract MANIFEST --shard k/n`.
enum ExtractCommand: Subcommand {
    static let manifest = PositionalArgument("MANIFEST", help: "the experiment manifest whose video sources are extracted")
    static let shard = CommandOption.text(
        "shard", valueName: "I/N",
        help: "extract only shard I of N (0 ≤ I < N): the videos at positions I, I+N, I+2N, … of the manifest's "
            + "video list (manifest order, folders sorted), so N processes, on one machine or many, cover every video once")
    static let workers = CommandOption.positiveInteger(
        "workers", valueName: "N",
        help: "videos extracted at once, each with its own pose landmarker (default features.workers, else the "
            + "processors available); the extracted poses are identical whatever N")
    static let shards = CommandOption.positiveInteger(
        "shards", valueName: "N",
        help: "with --launcher slurm: array tasks, each extracting one shard (default: one per video, at most 1000)")
    static let output = CommandOption.text(
        "output", valueName: "DIR",
        help: "with --launcher slurm: the job folder of the script, logs and task exit files (default "
            + "<output.directory>/<name>/extract-<UTC time>)")

    static let specification = CommandSpecification(
        name: "extract",
        abstract: "extract the poses of every video source (all splits and grid cells) into the feature cache, then "
            + "print the cache hits, new extractions and failures; exit status 1 if a video failed (after extracting the rest)",
        discussion: [
            "Progress goes to standard error: a progress bar on a terminal (videos done/total, frames/s, ETA), one "
                + "line per video otherwise. A cache entry that fails its checksum or cannot be read is moved aside, reported and extracted again.",
            "With --launcher slurm the extraction runs as a Slurm job array, one shard per task, into the manifest's "
                + "feature cache, which must be on a file system every node sees; `actionlab status DIR` shows the tasks. "
                + "Submitting again after a failure extracts only what the cache lacks.",
        ],
        arguments: [manifest],
        options: [shard, workers, SlurmOptions.launcher, shards, output] + SlurmOptions.resources)

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(overInputs: specification) { () throws -> Bool in
            let parsed = try CommandLineArguments(arguments, for: specification)
            let manifestURL = URL(fileURLWithPath: try parsed.value(of: manifest))
            let part = try parsed.value(of: shard).map(Self.shard(from:))
            let given = try SlurmOptions.givenKind(parsed, slurmOnly: [shards, output])
            if given == .slurm && part != nil {
                throw UsageError("--shard goes with the local launcher: --launcher slurm gives each array task its shard")
            }
            let givenOptions = try SlurmOptions.options(parsed)
            let plan = try ValidateCommand.loadPlan(manifestURL)
            // --launcher, else local for one shard (what each array task runs), else the manifest's.
            let kind = given ?? (part != nil ? .local : plan.launcher.kind)
            try SlurmOptions.check(kind, parsed, slurmOnly: [shards, output])
            if kind == .slurm {
                try submit(plan: plan, manifest: manifestURL, options: plan.launcher.overridden(by: givenOptions), parsed)
                return false
            }
            let cache = try FeatureCache(directory: plan.base.features.cache) { discarded in
                Console.progress("warning: \(discarded)")
            }
            let all = ManifestVideos(configurations: plan.cells)
            let videos = part.map { all.shard($0.index, of: $0.count) } ?? all
            let count = try parsed.value(of: workers) ?? plan.base.features.extractionWorkers
            Console.progress("\(videos.videos.count) video\(videos.videos.count == 1 ? "" : "s") to extract into \(cache.directory.path)"
                + (part.map { " (shard \($0.index)/\($0.count) of \(all.videos.count) videos)" } ?? "")
                + ", \(count) at a time")
            let display = ProgressDisplay()
            let summary = VideoExtractionRun(videos: videos, cache: cache, workers: count).run(onEvent: display.handle)
            print("videos: \(videos.videos.count), cache hits: \(summary.cacheHits), new extractions: \(summary.extracted) "
                + "(\(summary.framesExtracted) frames), failures: \(summary.failures.count)")
            for failure in summary.failures { Console.error("failed: \(failure)") }
            return !summary.failures.isEmpty
        }
    }

    /// `I/N` with `0 <= I < N`.
    /// - Throws: `UsageError` for anything else.
    static func shard(from text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else {
            throw UsageError("--shard '\(text)': expected I/N with 0 ≤ I < N, such as 0/4")
        }
        return (index, count)
    }

    /// Submits the extraction of `plan`'s videos as a job array and prints the job folder.
    private static func submit(plan: SweepPlan, manifest: URL, options: SlurmJobScript.Options, _ parsed: CommandLineArguments) throws {
        let executable = try SlurmOptions.executable()
        let videos = ManifestVideos(configurations: plan.cells)
        for failure in videos.listingFailures { Console.error("failed: \(failure)") }
        guard !videos.videos.isEmpty else {
            throw UsageError("\(manifest.path) names no video to extract")
        }
        let folder = try parsed.value(of: output).map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? SweepRunner.newFolder(for: plan, prefix: "extract-")
        let count = min(try parsed.value(of: shards) ?? videos.videos.count, videos.videos.count, SlurmJobScript.maxArrayTasks)
        let launcher = SlurmLauncher(options: options, executable: executable)
        launcher.resourceWarnings(cpusPerTask: options.cpusPerTask ?? 1).forEach { Console.progress($0) }
        let record: SlurmExtractionRecord
        do {
            record = try launcher
                .submitExtraction(manifest: manifest, shards: count, jobFolder: folder, name: "actionlab-\(plan.base.name)-extract")
        } catch let error as SlurmClient.SlurmError {
            // Nothing is queued; the folder holds the refused script, and a new submission may use it again.
            let again = try parsed.value(of: output) != nil ? "the same command submits again into it"
                : "the same command with --output \(SlurmJobScript.quoted(folder.path)) submits again into it"
            Console.progress("extraction not submitted: sbatch refused \(folder.path)/\(SlurmLauncher.extractionScriptName); "
                + "once the cause below is fixed, \(again)")
            throw error
        }
        Console.progress("submitted job array \(record.arrayJobID): \(videos.videos.count) video\(videos.videos.count == 1 ? "" : "s") in "
            + "\(count) shard\(count == 1 ? "" : "s"), logs in \(folder.path)/logs; 'actionlab status \(folder.path)' shows the tasks")
        print(folder.path)
    }
}
