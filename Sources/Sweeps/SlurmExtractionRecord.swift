import Foundation
import JSON5

/// An extraction submitted to Slurm, as recorded in `extraction.json` of its job folder.
public struct SlurmExtractionRecord: Codable, Equatable, Sendable {
    /// The manifest whose videos are extracted.
    public var manifest: String
    /// The job array's id.
    public var arrayJobID: String
    /// The number of shards, one per array task.
    public var shards: Int
    /// Seconds since 1970.
    public var submitted: Double

    /// `extraction.json` in `folder`.
    public static func fileURL(in folder: URL) -> URL { folder.appendingPathComponent("extraction.json") }

    /// The record of the job folder `folder`, or nil when it has none.
    /// - Throws: `SweepError.slurmRecord` naming the file when it exists but is not a record.
    public static func load(from folder: URL) throws -> SlurmExtractionRecord? {
        let url = fileURL(in: folder)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDocument.decode(SlurmExtractionRecord.self, from: data)
        } catch {
            throw SweepError.slurmRecord(path: url.path, reason: "not an extraction record written by extract --launcher slurm: \(error)")
        }
    }

    /// One line per array task (running, pending, its exit status and node, with its log), then
    /// the counts; asks `squeue` about the live tasks.
    /// - Throws: ``SlurmClient/SlurmError`` when `squeue` fails.
    public func statusLines(folder: URL, client: SlurmClient = SlurmClient()) throws -> [String] {
        let queued = try client.queued(jobIDs: [arrayJobID])
        let accounted = client.accounting(jobIDs: [arrayJobID]) ?? [:]
        var counts: [String: Int] = [:]
        var lines = (0..<shards).map { task -> String in
            let log = folder.appendingPathComponent("logs/\(arrayJobID)_\(task).out").path
            let state: String
            let detail: String
            if let live = queued.first(where: { $0.taskID == task || $0.taskID == nil }) {
                state = live.state == "PENDING" ? "pending" : "running"
                detail = live.state + (live.node.isEmpty ? "" : " on \(live.node)")
            } else {
                let ended = SlurmJobScript.exitStatus(arrayJobID: arrayJobID, task: task, in: folder)
                state = ended?.status == 0 ? "finished" : "failed"
                detail = SweepStatus.endedState(recorded: ended, accounted: accounted["\(arrayJobID)_\(task)"])
            }
            counts[state, default: 0] += 1
            return "shard \(task)/\(shards): \(state), Slurm task \(arrayJobID)_\(task) (\(detail))"
                + (state == "finished" ? "" : ", log \(log)")
        }
        lines.append(["finished", "running", "pending", "failed"].compactMap { state in counts[state].map { "\($0) \(state)" } }
            .joined(separator: ", "))
        return lines
    }
}
