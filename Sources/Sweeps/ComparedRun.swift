import Foundation
import JSON5
import Manifest
import Reports

/// One column of a comparison: a configuration with the finished trials that trained it,
/// read from a sweep folder (one of its configurations) or from a single trial folder.
public struct ComparedRun: Sendable {
    /// The folder it was read from.
    public var folder: URL
    /// The column title: `<name>/<sweep folder>` for a sweep's configuration (with `#rank` when
    /// every configuration is compared), `trial <id>` for a trial folder.
    public var label: String
    /// One line saying what it is: which configuration of which sweep, or which trial.
    public var summary: String
    /// The configuration (for a sweep configuration, `training.seeds` lists the cell's seeds).
    public var configuration: ExperimentConfiguration
    /// Its finished trials, in seed order.
    public var outcomes: [TrialOutcome]

    /// The runs in `folder`.
    ///
    /// - A sweep folder (with `sweep.json`) gives its best configuration by its own selection
    ///   metric (rank 1 of its leaderboard), or with `allConfigurations` every configuration
    ///   with a finished trial, best first.
    /// - A trial folder (`<sweep>/trials/<id>`, with `complete.json` and `config.json`) gives
    ///   that one trial.
    /// - Parameters:
    ///   - folder: The folder.
    ///   - allConfigurations: Whether a sweep gives all its configurations.
    /// - Returns: One run, or several for a sweep with `allConfigurations`.
    /// - Throws: `SweepError.notComparable` naming the folder if it does not exist, is
    ///   neither kind of folder, or is a sweep without a finished trial; the errors of
    ///   `SweepRecord` and `ReportError.unreadableReport` for unreadable files.
    public static func load(_ folder: URL, allConfigurations: Bool = false) throws -> [ComparedRun] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw SweepError.notComparable(path: folder.path, reason: "no such folder")
        }
        guard isDirectory.boolValue else {
            throw SweepError.notComparable(path: folder.path, reason: "it is a file; give a sweep folder or a trial folder")
        }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(SweepRecord.fileName).path) {
            return try sweepRuns(folder, allConfigurations: allConfigurations)
        }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(TrialRunner.completionMarker).path) {
            return [try trialRun(folder)]
        }
        throw SweepError.notComparable(
            path: folder.path,
            reason: "it is neither a sweep folder (no \(SweepRecord.fileName)) nor a finished trial folder "
                + "(no \(TrialRunner.completionMarker); trial folders are <sweep>/trials/<id>)")
    }

    private static func sweepRuns(_ folder: URL, allConfigurations: Bool) throws -> [ComparedRun] {
        let record = try SweepRecord(folder: folder)
        let plan = try record.plan()
        let leaderboard = Leaderboard(plan: plan, folder: folder)
        guard !leaderboard.rows.isEmpty else {
            throw SweepError.notComparable(
                path: folder.path, reason: "the sweep has no finished trial; run 'actionlab run \(folder.path)' first")
        }
        let name = "\(record.name)/\(folder.standardizedFileURL.lastPathComponent)"
        let rows = allConfigurations ? leaderboard.rows : [leaderboard.rows[0]]
        return rows.enumerated().map { rank, row in
            let values = row.values.map(\.assignment).joined(separator: ", ")
            // Ranks count the configurations with a finished trial.
            let count = leaderboard.rows.count
            let ranked = count == plan.cells.count ? "\(count)" : "\(count) finished (of \(plan.cells.count))"
            let which = plan.cells.count == 1
                ? "sweep '\(record.name)' (one configuration)"
                : (rank == 0 ? "best of \(ranked) configurations" : "configuration ranked \(rank + 1) of \(ranked)")
                    + " of sweep '\(record.name)' by \(leaderboard.metric.rawValue)" + (values.isEmpty ? "" : ": \(values)")
            let partial = leaderboard.finishedTrials < plan.trials.count
                ? " (only \(leaderboard.finishedTrials) of \(plan.trials.count) trials finished)" : ""
            return ComparedRun(
                folder: folder, label: allConfigurations && plan.cells.count > 1 ? "\(name) #\(rank + 1)" : name,
                summary: which + partial, configuration: plan.cells[row.cell],
                outcomes: row.outcomes)
        }
    }

    private static func trialRun(_ folder: URL) throws -> ComparedRun {
        // A trial folder that `status` calls damaged is not compared either (TrialFolderCheck).
        if let damage = TrialFolderCheck(folder: folder, name: folder.lastPathComponent)?.damage {
            throw SweepError.notComparable(path: folder.path, reason: "the trial folder is damaged: \(damage)")
        }
        let outcome: TrialOutcome = try decode(folder.appendingPathComponent(TrialRunner.completionMarker))
        let file: TrialConfigurationFile = try decode(folder.appendingPathComponent("config.json"))
        let values = outcome.values.map(\.assignment).joined(separator: ", ")
        return ComparedRun(
            folder: folder, label: "trial \(outcome.id)",
            summary: "trial \(outcome.id) of '\(file.configuration.name)', seed \(outcome.seed)" + (values.isEmpty ? "" : ": \(values)"),
            configuration: file.configuration, outcomes: [outcome])
    }

    private static func decode<Value: Decodable>(_ url: URL) throws -> Value {
        try ReportFile.decodeJSON(Value.self, from: url)
    }
}
