import Foundation
import Sweeps

/// Which trial of a sweep folder to export, and why.
///
/// The rule: the best configuration of the sweep's leaderboard (its selection metric, mean over
/// seeds; ties to the lower mean validation loss, then grid order), and within it the seed with
/// the highest validation accuracy over windows, then the lower validation loss, then the trial
/// id, so the choice never depends on the order the file system lists folders. Test scores are
/// shown but never used, unless the sweep itself selects by them.
public struct TrialSelection: Sendable {
    /// A trial that could be exported, with the values the rule compares.
    public struct Candidate: Sendable, Hashable {
        /// The trial folder.
        public var folder: TrialFolder
        /// Validation accuracy over windows, if the trial had a validation split.
        public var validationAccuracy: Double?
        /// Validation loss over windows.
        public var validationLoss: Double?
        /// Test accuracy over windows, for information only.
        public var testAccuracy: Double?

        public init(folder: TrialFolder, validationAccuracy: Double?, validationLoss: Double?, testAccuracy: Double?) {
            self.folder = folder
            self.validationAccuracy = validationAccuracy
            self.validationLoss = validationLoss
            self.testAccuracy = testAccuracy
        }
    }

    /// The rule's text, as recorded in the model card and the exported metadata.
    public static let bestByValidationRule =
        "highest validation accuracy (windows); ties broken by lower validation loss, then by folder name"

    /// The complete candidates, best first by the rule.
    public var candidates: [Candidate]
    /// The trial exported.
    public var chosen: Candidate
    /// How it was chosen.
    public var rule: String
    /// Trial folders left out because they lack required files (unfinished trials), with what is missing.
    public var incomplete: [(id: String, missing: [String])]

    /// Orders candidates by the rule, best first; candidates without validation metrics last.
    public static func ranked(_ candidates: [Candidate]) -> [Candidate] {
        candidates.sorted { a, b in
            switch (a.validationAccuracy, b.validationAccuracy) {
            case let (x?, y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let (lossA, lossB) = (a.validationLoss ?? .infinity, b.validationLoss ?? .infinity)
            if lossA != lossB { return lossA < lossB }
            return a.folder.id < b.folder.id
        }
    }

    /// Why a regular file given as the model folder cannot be read.
    static let notAFolder = "a file, not a folder: give a sweep folder, a trial folder or an export folder"

    /// Finds the trials in `directory` and chooses one.
    ///
    /// `directory` is either a trial folder (it holds `weights.h5`) or a sweep folder whose
    /// trials are `trials/*/` folders (`actionlab run`).
    ///
    /// - Parameters:
    ///   - directory: A trial folder or a report folder.
    ///   - trialID: A trial to export instead of the rule's choice: its id (`trials/ab12`) or
    ///     folder name.
    /// - Returns: The selection, with every complete candidate's values.
    /// - Throws: ``ExportError`` when the folder is missing or a file, holds no complete trial, has no
    ///   trial `trialID`, or no candidate has validation metrics (and `trialID` is nil) while the
    ///   sweep has more than one trial (its only trial is chosen without them);
    ///   `SweepError.notASweep` when the folder holds a `sweep.json` that cannot be read (its
    ///   leaderboard rule cannot be applied, and another rule would choose silently).

    public static func select(in directory: URL, trialID: String? = nil) throws -> TrialSelection {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw ExportError.folderNotFound(path: directory.path)
        }
        guard isDirectory.boolValue else { throw ExportError.unreadableFile(path: directory.path, reason: Self.notAFolder) }
        let folders: [TrialFolder]
        let givenDirectly = TrialFolder.looksLikeTrial(directory)
        if givenDirectly {
            folders = [TrialFolder(url: directory, id: directory.lastPathComponent)]
        } else {
            folders = trialFolders(in: directory)
            guard !folders.isEmpty else {
                // A trial or export folder whose weights are gone is not taken for an empty sweep.
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent(ModelExporter.configurationName).path) {
                    throw ExportError.missingFile(
                        path: directory.appendingPathComponent("weights.h5").path,
                        purpose: "the trained weights, which a trial or export folder holds beside its \(ModelExporter.configurationName)")
                }
                throw ExportError.noTrials(folder: directory.path)
            }
        }
        let incomplete = folders.compactMap { folder -> (id: String, missing: [String])? in
            let missing = folder.missingFiles
            return missing.isEmpty ? nil : (folder.id, missing)
        }
        let complete = folders.filter { folder in !incomplete.contains { $0.id == folder.id } }
        guard !complete.isEmpty else {
            throw ExportError.noCompleteTrials(
                folder: directory.path,
                missing: incomplete.map { "\($0.id) lacks \($0.missing.joined(separator: ", "))" })
        }
        let candidates = ranked(try complete.map { folder in
            let metrics = try folder.decodeJSON(TrialMetrics.self, from: "metrics.json")
            return Candidate(
                folder: folder, validationAccuracy: metrics.validationAccuracy, validationLoss: metrics.validationLoss,
                testAccuracy: metrics.splits["test"]?.window.accuracy)
        })

        if let trialID {
            guard let chosen = candidates.first(where: { $0.folder.id == trialID || $0.folder.url.lastPathComponent == trialID })
            else {
                // A trial that is there but unfinished or damaged is named as such, not as unknown.
                if let unfinished = incomplete.first(where: { $0.id == trialID || $0.id.hasSuffix("/\(trialID)") }) {
                    throw ExportError.noCompleteTrials(
                        folder: directory.path, missing: ["\(unfinished.id) lacks \(unfinished.missing.joined(separator: ", "))"])
                }
                throw ExportError.unknownTrial(trialID, folder: directory.path, available: candidates.map(\.folder.id))
            }
            return TrialSelection(candidates: candidates, chosen: chosen, rule: "named with --trial \(trialID)", incomplete: incomplete)
        }
        if givenDirectly, let only = candidates.first {
            return TrialSelection(candidates: candidates, chosen: only, rule: "the trial folder given", incomplete: incomplete)
        }
        // A sweep.json that is there but does not read, or is gone from a folder that was a sweep,
        // is an error, as in `status` and `compare`: falling back to the validation rule would
        // choose by another rule without a word.
        let sweepFiles = ["resolved.json", "leaderboard.csv", "manifest.json5"].filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
        if !givenDirectly, !sweepFiles.isEmpty,
           !FileManager.default.fileExists(atPath: directory.appendingPathComponent(SweepRecord.fileName).path) {
            throw SweepError.notASweep(
                path: directory.path,
                reason: "it has no \(SweepRecord.fileName), yet it holds a sweep's \(sweepFiles.joined(separator: ", ")): the sweep's "
                    + "leaderboard rule would choose the trial; restore \(SweepRecord.fileName), or name a trial with --trial ID")
        }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent(SweepRecord.fileName).path) {
            let record = try SweepRecord(folder: directory)
            let outcomes = record.trials.compactMap { TrialRunner.outcome(of: $0, in: directory, verifyingTensors: false) }
            let leaderboard = Leaderboard(
                metric: record.sweep.selection, parameters: record.sweep.axes.map(\.path), outcomes: outcomes, timings: [:])
            if let row = leaderboard.rows.first, row.selection != nil {
                let ids = Set(row.outcomes.map { "trials/\($0.id)" })
                if let best = candidates.first(where: { ids.contains($0.folder.id) }) {
                    let values = row.values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
                    let seeds = row.outcomes.count == 1 ? "1 seed" : "\(row.outcomes.count) seeds"
                    let unfinished = outcomes.count < record.trials.count
                        ? "; only \(outcomes.count) of the sweep's \(record.trials.count) trials had finished" : ""
                    let rule = "best configuration by \(record.sweep.selection.rawValue) (mean over \(seeds); "
                        + "ties: lower validation loss, then grid order\(unfinished))\(values.isEmpty ? "" : " [\(values)]"); within it, "
                        + bestByValidationRule
                    return TrialSelection(candidates: candidates, chosen: best, rule: rule, incomplete: incomplete)
                }
            }
        }
        // A sweep of one trial (one configuration, one seed) leaves nothing to choose, even
        // without a validation split (`validation.strategy: "none"`, as the UTD-MHAD manifests).
        let trialCount = FileManager.default.fileExists(atPath: directory.appendingPathComponent(SweepRecord.fileName).path)
            ? try SweepRecord(folder: directory).trials.count : folders.count
        if let only = candidates.first, only.validationAccuracy == nil, candidates.count == 1, trialCount == 1 {
            return TrialSelection(
                candidates: candidates, chosen: only, rule: "the sweep's only trial (no validation scores to choose by)", incomplete: incomplete)
        }
        guard let best = candidates.first, best.validationAccuracy != nil else {
            throw ExportError.noValidationMetrics(folder: directory.path, candidates: candidates.map(\.folder.id))
        }
        return TrialSelection(candidates: candidates, chosen: best, rule: bestByValidationRule, incomplete: incomplete)
    }

    /// The folders inside `directory/trials` (finished or not, but not partial folders of running
    /// or killed trials), sorted by id.
    private static func trialFolders(in directory: URL) -> [TrialFolder] {
        func subfolders(of url: URL) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
        }
        let trialsRoot = directory.appendingPathComponent("trials")
        return subfolders(of: trialsRoot).filter { !$0.contains(".partial-") }
            .map { TrialFolder(url: trialsRoot.appendingPathComponent($0), id: "trials/\($0)") }
            .sorted { $0.id < $1.id }
    }
}
