import AtomicFiles
import Foundation

/// Pose extraction of a manifest's videos as a Slurm job array
/// (`actionlab extract MANIFEST --launcher slurm`): array task `k` of `n` runs
/// `actionlab extract MANIFEST --shard k/n`, the videos at positions `k`, `k + n`, … of the
/// manifest's video list, into the manifest's feature cache.
///
/// The tasks run in the folder `extract` was called from (`--chdir`), against which the
/// manifest's relative paths resolve; it, the videos and the cache must sit on a file system every
/// node sees, at the same paths. Each entry appears whole, by rename, so
/// a task that is cancelled or preempted leaves the videos it finished and no half entry, and a
/// later `run` or `extract` finds every entry. Submitting again after a failure runs every shard
/// again; videos already in the cache are hits, so only the missing ones are extracted.
///
/// The job folder (`<output.directory>/<name>/extract-<UTC time>` unless given) holds the script
/// `extract.sbatch`, the record ``SlurmExtractionRecord`` (`extraction.json`), `logs/` and the
/// tasks' exit files `tasks/` (see ``SlurmJobScript``).
extension SlurmLauncher {
    /// Writes the job script into `jobFolder` and submits it.
    /// - Parameters:
    ///   - manifest: The manifest, by a path every node can open.
    ///   - shards: Array tasks, at least 1 (at most ``SlurmJobScript/maxArrayTasks``).
    ///   - jobFolder: A new or empty folder on a file system every node sees, or the folder of a
    ///     submission `sbatch` refused (the script and an empty `logs/`), which is used again.
    ///   - name: The job name.
    /// - Returns: The record written to `extraction.json`.
    /// - Throws: ``SlurmClient/SlurmError`` when Slurm refuses; `SweepError.slurmRecord` when
    ///   `jobFolder` holds other files; an `AtomicFiles` error when a file cannot be written.
    public func submitExtraction(manifest: URL, shards: Int, jobFolder: URL, name: String) throws -> SlurmExtractionRecord {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: jobFolder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw SweepError.slurmRecord(path: jobFolder.path, reason: "is a file: give a new --output folder for the extraction job")
        }
        if let existing = try? manager.contentsOfDirectory(atPath: jobFolder.path), !existing.isEmpty,
           !Self.isRefusedExtraction(jobFolder, holding: existing) {
            throw SweepError.slurmRecord(
                path: jobFolder.path, reason: "the extraction job folder is not empty: give a new --output folder")
        }
        try manager.createDirectory(at: jobFolder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let shards = min(max(shards, 1), SlurmJobScript.maxArrayTasks)
        let quote = SlurmJobScript.quoted
        let manifestPath = manifest.standardizedFileURL.path
        let script = SlurmJobScript(
            name: name, jobFolder: jobFolder,
            summary: ["Written by actionlab extract --launcher slurm: the videos of",
                      "\(manifestPath) in \(shards) shard\(shards == 1 ? "" : "s"), one per array task."],
            command: "\(quote(executable.standardizedFileURL.path)) extract \(quote(manifestPath)) "
                + "--shard \"$SLURM_ARRAY_TASK_ID/\(shards)\"",
            taskCount: shards, options: options, defaultCPUsPerTask: 1,
            workingDirectory: URL(fileURLWithPath: manager.currentDirectoryPath, isDirectory: true))
        let scriptURL = jobFolder.appendingPathComponent(Self.extractionScriptName)
        try AtomicFile.write(script.text, to: scriptURL)
        let arrayID = try client.submit(scriptURL)
        let record = SlurmExtractionRecord(
            manifest: manifestPath, arrayJobID: arrayID, shards: shards, submitted: Date().timeIntervalSince1970)
        try AtomicFile.writeJSON(record, to: SlurmExtractionRecord.fileURL(in: jobFolder))
        return record
    }

    /// The job script's name in an extraction job folder.
    public static let extractionScriptName = "extract.sbatch"

    /// Whether `folder`, whose entries are `names`, is what a submission `sbatch` refused leaves:
    /// the job script and an empty `logs/`, no record. Submitting into it again is safe.
    static func isRefusedExtraction(_ folder: URL, holding names: [String]) -> Bool {
        guard Set(names).isSubset(of: [extractionScriptName, "logs"]) else { return false }
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("logs").path)) ?? []
        return logs.isEmpty
    }
}
