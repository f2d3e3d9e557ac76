import AtomicFiles
import Foundation
import Reports

/// A side-by-side comparison of runs (`actionlab compare`): first the settings whose values
/// differ, then the scores.
///
/// Each run's resolved configuration, without the settings that change no result
/// (``Trial/identityConfiguration(of:)``: the cache and output folders, `features.workers`, the description), is
/// flattened to dotted paths (``ExperimentConfiguration/flattenedSettings()``); only paths whose
/// values are not the same in every run are shown, one column per run, `—` where a run lacks the setting. Scores
/// are mean ± sample standard deviation over each run's finished seeds (one value for a
/// trial), window level unless stated; the best mean of each score is in bold.
public struct Comparison: Sendable {
    /// The runs, one column each, in the order given.
    public var runs: [ComparedRun]

    public init(runs: [ComparedRun]) {
        self.runs = runs
    }

    /// Reads the runs of `folders` (see ``ComparedRun/load(_:allConfigurations:)``).
    /// - Throws: The first folder's error, naming it.
    public init(folders: [URL], allConfigurations: Bool = false) throws {
        runs = try folders.flatMap { try ComparedRun.load($0, allConfigurations: allConfigurations) }
        var seen: [String: Int] = [:]
        for index in runs.indices {
            let count = seen[runs[index].label, default: 0] + 1
            seen[runs[index].label] = count
            if count > 1 { runs[index].label += " (\(count))" }
        }
    }

    /// One setting that differs: its path and each run's value (nil where a run lacks it).
    public struct Difference: Sendable, Equatable {
        /// The dotted setting path.
        public var path: String
        /// Each run's value as canonical JSON text, nil where the run lacks the setting.
        public var values: [String?]

        public init(path: String, values: [String?]) {
            self.path = path
            self.values = values
        }
    }

    /// Number of distinct setting paths over all runs.
    public var settingCount: Int {
        Set(runs.flatMap { Self.settings(of: $0).map(\.path) }).count
    }

    /// The settings of `run` that are compared.
    private static func settings(of run: ComparedRun) -> [(path: String, value: String)] {
        Trial.identityConfiguration(of: run.configuration).flattenedSettings()
    }

    /// The settings whose values are not all equal, in sorted path order. An empty object (`{}`)
    /// where another run has members under the same path is not a row of its own: those members'
    /// rows already show it (`dataset.labels.Badminton | — | x`, not also `dataset.labels | {} | —`).
    public var differences: [Difference] {
        let settings = runs.map { Dictionary(Self.settings(of: $0), uniquingKeysWith: { first, _ in first }) }
        let allPaths = Set(settings.flatMap(\.keys))
        let paths = allPaths.filter { path in
            !(settings.allSatisfy { $0[path] == nil || $0[path] == "{}" }
                && allPaths.contains { $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") })
        }.sorted()
        return paths.compactMap { path in
            let values = settings.map { $0[path] }
            return Set(values.map { $0 ?? "\u{0}absent" }).count > 1 ? Difference(path: path, values: values) : nil
        }
    }

    /// The differing settings as a table: `setting`, then one column per run.
    public var differenceTable: Table {
        var table = Table(header: ["setting"] + runs.map(\.label))
        for difference in differences {
            table.append([difference.path] + difference.values.map { $0.map(Self.cell) ?? "—" })
        }
        return table
    }

    /// The scores as a table: `metric`, then one column per run; the best mean in bold.
    public var metricTable: Table {
        var table = Table(header: ["metric"] + runs.map(\.label), numericColumns: Set(1...max(1, runs.count)))
        // The number of seeds, then which: a lone seed value (`0`) would read as a count.
        table.append(["seeds"] + runs.map { "\($0.outcomes.count)" })
        table.append(["seed values"] + runs.map { $0.outcomes.map { "\($0.seed)" }.joined(separator: ", ") })
        let scores: [(title: String, higherIsBetter: Bool, value: (TrialOutcome) -> Double?)] =
            Leaderboard.scoreColumns.map { ($0.title, true, $0.value) }
            + [("validation loss", false, { $0.splits["validation"]?.loss }), ("test loss", false, { $0.splits["test"]?.loss })]
        for score in scores {
            let values = runs.map { $0.outcomes.compactMap(score.value) }
            guard values.contains(where: { !$0.isEmpty }) else { continue }
            let means = values.map { $0.isEmpty ? nil : Statistics($0).mean }
            let present = means.compactMap { $0 }
            let best = present.count > 1 ? (score.higherIsBetter ? present.max() : present.min()) : nil
            table.append([score.title] + zip(values, means).map { values, mean in
                guard let mean else { return "—" }
                let text = NumberFormat.meanStd(values)
                return mean == best ? "**\(text)**" : text
            })
        }
        return table
    }

    /// The comparison in Markdown: the runs, the differing settings, the scores.
    public var markdown: String {
        var text = "# Comparison of \(runs.count) run\(runs.count == 1 ? "" : "s")\n\n"
        var list = Table(header: ["run", "what", "folder"])
        for run in runs { list.append([run.label, run.summary, "`\(run.folder.path)`"]) }
        text += list.markdown + "\n"
        text += "## Settings that differ\n\n"
        let differences = differenceTable
        if differences.rows.isEmpty {
            text += "The resolved configurations are identical (\(settingCount) settings).\n\n"
        } else {
            text += "\(differences.rows.count) of \(settingCount) settings of the resolved configurations differ "
                + "(dotted paths; — where a run lacks the setting).\n\n" + differences.markdown + "\n"
        }
        text += "## Scores\n\nMean ± sample standard deviation over seeds, window level unless stated; "
            + "the best mean of each score in bold.\n\n" + metricTable.markdown
        return text
    }

    /// Writes ``markdown`` to `url` atomically, creating its folder if needed.
    /// - Throws: `AtomicFileError` naming the file and the system's reason.
    public func write(to url: URL) throws {
        try AtomicFile.write(markdown, to: url)
    }

    /// A value as a Markdown cell: JSON strings without their quotes, code-formatted.
    private static func cell(_ json: String) -> String {
        "`\(Trial.SweptValue.display(json))`"
    }
}
