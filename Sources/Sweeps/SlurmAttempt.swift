import AtomicFiles
import Foundation
import JSON5

/// The latest submission `run --launcher slurm` tried for a sweep folder, recorded in
/// `slurm/attempt.json` before Slurm is asked anything: its number and the resources it asked for.
///
/// A submission `sbatch` accepted is also in `slurm/submissions.json` (``SlurmSubmission``) under
/// the same number; one it refused (a partition that does not exist, `sbatch` missing) is only
/// here. Either way the folder now belongs to Slurm: `run DIR` submits again with these
/// resources (options on its command line replace them key by key) rather than training on the
/// login node it was given on, and `status` notes the refused job script.
public struct SlurmAttempt: Codable, Equatable, Sendable {
    /// The submission's number: `slurm/submission-<number>.sbatch` is its job script.
    public var number: Int
    /// The resources it asked for.
    public var options: SlurmJobScript.Options
    /// When it was tried, seconds since 1970.
    public var attempted: Double

    public init(number: Int, options: SlurmJobScript.Options, attempted: Double = Date().timeIntervalSince1970) {
        self.number = number
        self.options = options
        self.attempted = attempted
    }

    /// `slurm/attempt.json` in `folder`.
    public static func fileURL(in folder: URL) -> URL {
        folder.appendingPathComponent(SlurmLauncher.folderName).appendingPathComponent("attempt.json")
    }

    /// The latest attempt recorded in `folder`, or nil when none was (a local sweep, or one
    /// submitted before attempts were recorded).
    /// - Throws: `SweepError.slurmRecord` naming the file when it exists but is not an attempt.
    public static func latest(in folder: URL) throws -> SlurmAttempt? {
        let url = fileURL(in: folder)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDocument.decode(SlurmAttempt.self, from: data)
        } catch {
            throw SweepError.slurmRecord(
                path: url.path,
                reason: "not a Slurm submission attempt written by run --launcher slurm: \(error); deleting it loses only the "
                    + "resources of the latest submission ('actionlab run DIR' then submits with those of slurm/submissions.json, "
                    + "or give them on the command line)")
        }
    }

    /// Records the attempt in `folder` (atomically).
    /// - Throws: An `AtomicFiles` error when the file cannot be written.
    public func write(in folder: URL) throws {
        try AtomicFile.writeJSON(self, to: Self.fileURL(in: folder))
    }

    /// The job script `sbatch` refused: the attempt's script when it was written and no recorded
    /// submission has the attempt's number; nil when `sbatch` accepted it, or when it never got
    /// that far (`squeue` failed, or nothing was left to submit).
    public func refusedScript(given submissions: [SlurmSubmission], in folder: URL) -> URL? {
        let script = SlurmLauncher.scriptURL(number: number, in: folder)
        guard !submissions.contains(where: { $0.number == number }), FileManager.default.fileExists(atPath: script.path) else { return nil }
        return script
    }
}
