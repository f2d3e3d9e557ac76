import AtomicFiles
import Foundation
import JSON5
import Manifest

/// `sweep.json`: the trials of a sweep folder with their full configurations, so that
/// `actionlab trial DIR INDEX` and a resumed `actionlab run DIR` need nothing but the folder.
public struct SweepRecord: Sendable, Codable {
    /// Always `actionlab-sweep`.
    public var format: String
    /// Format version, 1.
    public var formatVersion: Int
    /// The experiment's name.
    public var name: String
    /// The grid and selection rule.
    public var sweep: SweepConfiguration
    /// The base configuration (the manifest without grid values).
    public var base: ExperimentConfiguration
    /// Every trial, in index order.
    public var trials: [Trial]

    /// The file name inside a sweep folder.
    public static let fileName = "sweep.json"
    /// The copy of the manifest a sweep was made from, beside `sweep.json` (absent for a sweep
    /// made in code).
    public static let manifestCopyName = "manifest.json5"
    /// The resolved base configuration, beside `sweep.json`.
    public static let resolvedConfigurationName = "resolved.json"

    public init(plan: SweepPlan) {
        format = "actionlab-sweep"
        formatVersion = 1
        name = plan.base.name
        sweep = plan.sweep
        base = plan.base
        trials = plan.trials
    }

    /// Reads the record of a sweep folder.
    /// - Throws: `SweepError.notASweep` if the folder has no readable `sweep.json`.
    public init(folder: URL) throws {
        let url = folder.appendingPathComponent(Self.fileName)
        guard let data = try? Data(contentsOf: url) else {
            guard FileManager.default.fileExists(atPath: folder.path) else {
                throw SweepError.notASweep(path: folder.path, reason: "no such folder")
            }
            guard Self.isInterruptedCreation(folder) else {
                throw SweepError.notASweep(path: folder.path, reason: "it has no \(Self.fileName)")
            }
            throw SweepError.notASweep(
                path: folder.path,
                reason: "its creation was interrupted before \(Self.fileName) was written, so it holds no trial; "
                    + "run the manifest again with 'actionlab run MANIFEST --output \(folder.path)', which creates it afresh")
        }
        do {
            self = try JSONDocument.decode(SweepRecord.self, from: data)
        } catch {
            throw SweepError.notASweep(path: url.path, reason: "cannot be read: \(error)")
        }
        guard format == "actionlab-sweep", formatVersion == 1 else {
            throw SweepError.notASweep(path: url.path, reason: "format '\(format)' version \(formatVersion) is not 'actionlab-sweep' 1")
        }
    }

    /// Whether `folder` is a sweep folder whose creation was interrupted (a kill while an older
    /// version, which wrote it in place, created it): no `sweep.json`, nothing but an empty
    /// `trials` folder, `manifest.json5`, `resolved.json` and temporary files. Nothing in it is
    /// a result, so `run MANIFEST --output` creates it afresh. Today's folders appear whole.
    public static func isInterruptedCreation(_ folder: URL) -> Bool {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: folder.appendingPathComponent(fileName).path),
              let contents = try? manager.contentsOfDirectory(atPath: folder.path), !contents.isEmpty else { return false }
        return contents.allSatisfy { name in
            switch name {
            case manifestCopyName, resolvedConfigurationName: return true
            case "trials": return (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(name).path))?.isEmpty == true
            default: return AtomicFile.writerProcess(ofTemporaryFileNamed: name) != nil
            }
        }
    }

    /// The plan the record describes, with the trial ids it stores: they name the trial
    /// folders, whatever rule made them (before 2026-12-07, ids also hashed `features.cache`
    /// and `output.directory`).
    /// - Throws: `SweepError.notASweep` when the stored trials do not follow from their cells.
    public func plan() throws -> SweepPlan {
        var cells: [ExperimentConfiguration] = []
        for trial in trials where trial.cell == cells.count {
            var configuration = trial.configuration
            configuration.training.seeds = trials.filter { $0.cell == trial.cell }.map(\.seed)
            cells.append(configuration)
        }
        let plan = try SweepPlan(base: base, sweep: sweep, cells: cells)
        guard plan.trials.map(\.seed) == trials.map(\.seed), plan.trials.map(\.cell) == trials.map(\.cell) else {
            throw SweepError.notASweep(
                path: Self.fileName, reason: "its trials are not its cells' seeds in order (cell-major, then seed): was it edited by hand?")
        }
        return plan.withTrialIDs(trials.map(\.id))
    }

    enum CodingKeys: String, CodingKey {
        case format, formatVersion = "format_version", name, sweep, base, trials
    }
}
