import ContentHashing
import Foundation
import JSON5
import Manifest
import ManifestSchema

/// Everything a manifest asks to run: its grid cells' configurations and their trials.
///
/// Building a plan checks the base manifest and every cell before any work starts; all
/// problems are thrown together in one `ManifestError`, those of a cell prefixed with the cell's
/// swept values.
public struct SweepPlan: Sendable {
    /// The manifest as decoded without grid values.
    public var base: ExperimentConfiguration
    /// The `sweep` section (no axes for a plain manifest).
    public var sweep: SweepConfiguration
    /// The `launcher` section: where the trials and the extraction run (not part of any trial).
    public var launcher = LauncherConfiguration()
    /// One configuration per grid cell, first axis varying slowest.
    public var cells: [ExperimentConfiguration]
    /// Every cell crossed with its seeds.
    public private(set) var trials: [Trial]

    /// Reads and checks a manifest file.
    /// - Parameters:
    ///   - url: The manifest.
    ///   - baseDirectory: What relative paths resolve against (the current directory).
    /// - Throws: `SweepError.unreadableManifest` if the file is missing or a folder,
    ///   `JSON5Error` for bytes that are not UTF-8 (at the first one), for a syntax error and
    ///   for a key or string longer than `ManifestStringLimit.maximumBytes`, `ManifestError` listing every problem of the
    ///   manifest (a key given twice in one object among them) and its grid cells.
    public static func load(contentsOf url: URL, baseDirectory: URL) throws -> SweepPlan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SweepError.unreadableManifest(path: url.path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw SweepError.unreadableManifest(path: url.path, reason: "it is a folder; give a manifest file (experiments/NAME.json5)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SweepError.unreadableManifest(path: url.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
        let fileName = ExperimentConfiguration.displayName(of: url, relativeTo: baseDirectory)
        guard let text = String(data: data, encoding: .utf8) else {
            // Parsing the bytes throws at the line and column of the first one that is not UTF-8.
            _ = try JSON5Value(parsing: data, filePath: fileName)
            throw SweepError.unreadableManifest(path: url.path, reason: "is not UTF-8 text")
        }
        return try parse(text: text, fileName: fileName, baseDirectory: baseDirectory)
    }

    /// Reads and checks manifest text; see ``load(contentsOf:baseDirectory:)``.
    public static func parse(text: String, fileName: String, baseDirectory: URL) throws -> SweepPlan {
        // A key given twice is one problem among the others, not the only one reported.
        let (document, duplicateKeys) = try JSON5Value.parsingKeepingDuplicateKeys(text, filePath: fileName)
        try ManifestStringLimit.check(document, filePath: fileName)
        let (decodedBase, baseIssues) = ExperimentConfiguration.decode(document, baseDirectory: baseDirectory)
        var issues = duplicateKeys.map { ManifestIssue(path: "", line: $0.line, column: $0.column, message: $0.message) } + baseIssues
        var sweep = SweepConfiguration()
        var grid: [(path: [String], values: [JSON5Value])] = []
        // The sweep's own problems (an empty or repeated axis, an axis that cannot be swept) do
        // not stop the cells of its other axes from being checked: every problem at once.
        var sweepIssues: [ManifestIssue] = []
        if let member = document["sweep"] {
            let diagnostics = ManifestDiagnostics(baseDirectory: baseDirectory)
            let node = ManifestNode(value: member, path: JSONPath.root.appending(key: "sweep"), diagnostics: diagnostics)
            if let read = SweepConfiguration.read(node) { (sweep, grid) = read }
            sweepIssues = diagnostics.issues
        }
        var launcher = LauncherConfiguration()
        if let member = document["launcher"] {
            let diagnostics = ManifestDiagnostics(baseDirectory: baseDirectory)
            let node = ManifestNode(value: member, path: JSONPath.root.appending(key: "launcher"), diagnostics: diagnostics)
            if let read = node.object({ LauncherConfiguration(readingSettingsOf: $0) }) { launcher = read }
            issues += diagnostics.issues
        }
        guard let base = decodedBase, issues.isEmpty else { throw ManifestError(filePath: fileName, issues: issues + sweepIssues) }
        issues = sweepIssues

        // Duration, size and frame rate are linked: a grid over two of them needs the third unset.
        let linked = ["windows.duration", "windows.size", "windows.frameRate"]
        let sweptLinked = linked.filter { path in sweep.axes.contains { $0.path == path } }
        let fixedLinked = sweptLinked.count == 2
            ? linked.first { path in
                !sweptLinked.contains(path) && path.split(separator: ".").reduce(Optional(document)) { $0?[String($1)] } != nil
            }
            : nil
        var cells: [ExperimentConfiguration] = []
        var cellIssueGroups: [(issue: ManifestIssue, cells: [Int])] = []
        let assignments = Self.cartesianProduct(grid.map(\.values))
        let cellCount = assignments.count
        for (index, assignment) in assignments.enumerated() {
            var edited: JSON5Value? = document.removing("sweep").removing("launcher")
            for (axis, value) in zip(grid, assignment) { edited = edited?.setting(axis.path[...], to: value) }
            let label = zip(sweep.axes, assignment).map { "\($0.path)=\($1.jsonString(sortedKeys: true))" }.joined(separator: ", ")
            guard let edited else {
                issues.append(ManifestIssue(path: "sweep.grid", line: member(document, "sweep")?.line ?? 1, column: 1,
                                            message: "sweep cell \(index) (\(label)): a grid path goes through a value that is not an object"))
                continue
            }
            let (configuration, cellIssues) = ExperimentConfiguration.decode(edited, baseDirectory: baseDirectory)
            if cellIssues.isEmpty, !sweep.axes.isEmpty, sweep.selection.split == "validation",
               configuration?.dataset.validation.strategy == ValidationConfiguration.Strategy.none {
                issues.append(ManifestIssue(
                    path: "sweep.selection.metric", line: member(document, "sweep")?.line ?? 1, column: 1,
                    message: "sweep cell \(index) (\(label)): selecting by \(sweep.selection.rawValue) needs validation data, "
                        + "but dataset.validation.strategy is 'none'"))
            }
            for issue in cellIssues {
                var explained = issue
                // A misspelt axis: its suggestion must be a grid key too, the whole dotted path.
                let suggestionStart = "unknown key; did you mean '"
                if sweep.axes.contains(where: { $0.path == issue.path }), issue.message.hasPrefix(suggestionStart),
                   let parentEnd = issue.path.lastIndex(of: ".") {
                    explained.message = suggestionStart + issue.path[..<parentEnd] + "." + issue.message.dropFirst(suggestionStart.count)
                }
                if let fixedLinked, issue.path.hasPrefix("windows."), issue.message.hasPrefix("contradictory values") {
                    explained.message += "; the manifest sets \(fixedLinked) for every cell: remove it to sweep "
                        + sweptLinked.joined(separator: " and ")
                }
                // The same problem at each value of an axis (a misspelt axis key is reported at
                // each of its values) is one problem: grouped by path and message.
                if let group = cellIssueGroups.firstIndex(where: { $0.issue.path == explained.path && $0.issue.message == explained.message }) {
                    cellIssueGroups[group].cells.append(index)
                } else {
                    cellIssueGroups.append((explained, [index]))
                }
            }
            if let configuration { cells.append(configuration) }
        }
        // A problem of several cells is listed once, naming them: all of them, those with one
        // value of an axis (the problem is usually that value), or each.
        func label(_ cell: Int) -> String {
            zip(sweep.axes, assignments[cell]).map { "\($0.path)=\($1.jsonString(sortedKeys: true))" }.joined(separator: ", ")
        }
        issues += cellIssueGroups.map { group in
            var issue = group.issue
            let cells: String
            if group.cells.count == 1 {
                cells = "sweep cell \(group.cells[0]) (\(label(group.cells[0])))"
            } else if group.cells.count == cellCount {
                cells = "every sweep cell (\(cellCount))"
            } else if let axis = grid.indices.first(where: { axis in
                let value = assignments[group.cells[0]][axis]
                return assignments.indices.filter { assignments[$0][axis] == value } == group.cells
            }) {
                cells = "the \(group.cells.count) sweep cells with \(sweep.axes[axis].path)="
                    + assignments[group.cells[0]][axis].jsonString(sortedKeys: true)
            } else {
                cells = "sweep cells " + group.cells.map { "\($0) (\(label($0)))" }.joined(separator: ", ")
            }
            issue.message = "\(cells): \(issue.message)"
            return issue
        }
        guard issues.isEmpty else { throw ManifestError(filePath: fileName, issues: Self.deduplicated(issues)) }
        var plan = try SweepPlan(base: base, sweep: sweep, cells: cells)
        plan.launcher = launcher
        return plan
    }

    /// A plan from configurations already decoded (tests, programmatic use).
    /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL cannot hash a configuration.
    public init(base: ExperimentConfiguration, sweep: SweepConfiguration = SweepConfiguration(), cells: [ExperimentConfiguration]? = nil) throws {
        self.base = base
        self.sweep = sweep
        self.cells = cells ?? [base]
        trials = []
        trials = try Self.trials(cells: self.cells, sweep: sweep)
    }

    /// A copy with `transform` applied to the base and every cell; used for command-line
    /// overrides such as `--threads` and by tests. A trial whose identity the transform changes
    /// gets a new id; the others keep theirs (a sweep folder's ids stay those it was made with).
    public func adjusting(_ transform: (inout ExperimentConfiguration) -> Void) throws -> SweepPlan {
        var base = self.base
        transform(&base)
        let cells = self.cells.map { cell -> ExperimentConfiguration in
            var cell = cell
            transform(&cell)
            return cell
        }
        var adjusted = try SweepPlan(base: base, sweep: sweep, cells: cells)
        // Trials are matched by position only while the transform leaves their number alone.
        guard adjusted.trials.count == trials.count else { return adjusted }
        for (index, trial) in trials.enumerated() where trial.seed == adjusted.trials[index].seed {
            if try Self.trialID(of: trial.configuration) == adjusted.trials[index].id { adjusted.trials[index].id = trial.id }
        }
        return adjusted
    }

    /// This plan with `ids` as its trials' ids, in order (a sweep folder's stored ids).
    /// - Precondition: One id per trial.
    func withTrialIDs(_ ids: [String]) -> SweepPlan {
        precondition(ids.count == trials.count, "withTrialIDs: \(ids.count) ids for \(trials.count) trials")
        var plan = self
        for (index, id) in ids.enumerated() { plan.trials[index].id = id }
        return plan
    }

    /// This plan with the trial ids of a sweep folder made from it, when its trials are the
    /// same: an id stored by an earlier version, whose ids also hashed the cache and output
    /// folders, is kept, so that the folder's trials are found where they are.
    /// - Returns: nil when the trials differ in number, order, seed or identity.
    /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL cannot hash a configuration.
    func adoptingTrialIDs(of stored: [Trial]) throws -> SweepPlan? {
        guard stored.count == trials.count else { return nil }
        for (index, trial) in stored.enumerated() {
            guard trial.seed == trials[index].seed, try Self.trialID(of: trial.configuration) == trials[index].id else { return nil }
        }
        return withTrialIDs(stored.map(\.id))
    }

    /// The grid description `actionlab validate` prints.
    public func gridDescription() -> String {
        guard !sweep.axes.isEmpty else {
            return "Sweep: none (one configuration × \(base.training.seeds.count) seed(s) = \(trials.count) trial(s))\n"
        }
        let seeds = base.training.seeds.count
        var lines = ["Sweep: \(sweep.cellCount) configurations × \(seeds) seed\(seeds == 1 ? "" : "s") = \(trials.count) trials, "
            + "selected by \(sweep.selection.rawValue) (mean over seeds)"]
        for axis in sweep.axes { lines.append("  \(axis.path): \(axis.values.joined(separator: ", "))") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func trials(cells: [ExperimentConfiguration], sweep: SweepConfiguration) throws -> [Trial] {
        var trials: [Trial] = []
        let assignments = cartesianProduct(sweep.axes.map(\.values))
        for (cellIndex, cell) in cells.enumerated() {
            let values = zip(sweep.axes, assignments[cellIndex]).map { Trial.SweptValue(path: $0.path, value: $1) }
            for seed in cell.training.seeds {
                var configuration = cell
                configuration.training.seeds = [seed]
                trials.append(Trial(
                    index: trials.count, cell: cellIndex, seed: seed, id: try trialID(of: configuration),
                    values: values, configuration: configuration))
            }
        }
        return trials
    }

    /// The id of a trial training `configuration` (one seed): the first 12 hex digits of the
    /// SHA-256 of ``Trial/identityConfiguration(of:)``'s resolved JSON.
    /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL cannot hash it.
    static func trialID(of configuration: ExperimentConfiguration) throws -> String {
        String(try ContentHash.sha256(of: Trial.identityConfiguration(of: configuration).resolvedJSON()).hexDigest.prefix(12))
    }

    /// Every combination of one element per list, the first list varying slowest; one empty
    /// combination for no lists.
    static func cartesianProduct<Element>(_ lists: [[Element]]) -> [[Element]] {
        lists.reduce([[]]) { combinations, list in combinations.flatMap { prefix in list.map { prefix + [$0] } } }
    }

    private static func member(_ document: JSON5Value, _ key: String) -> SourceLocation? {
        document.objectMembers?.first { $0.key == key }?.keyLocation
    }

    /// Drops repeated issues (the same problem in every cell is listed once per cell otherwise).
    private static func deduplicated(_ issues: [ManifestIssue]) -> [ManifestIssue] {
        var seen = Set<String>()
        return issues.filter { seen.insert("\($0.line):\($0.column):\($0.description)").inserted }
    }
}

extension SweepPlan {
    /// A warning when a trial asks for more compute threads (`training.threads`) than there are
    /// processors this process may use, or nil.
    ///
    /// - Parameter logicalCores: The cores to compare with; default: those this process may run on
    ///   (``FeatureConfiguration/availableCores(environment:)``).
    public func threadWarning(logicalCores: Int = FeatureConfiguration.availableCores()) -> String? {
        guard let threads = trials.map(\.configuration.training.threads).max(), threads > logicalCores else { return nil }
        return "warning: training.threads \(threads) is more than the \(logicalCores) processors available here: each operation is split "
            + "into \(threads) parts that take turns on \(logicalCores) cores (slower; the same results as \(threads) threads elsewhere)"
    }
}
