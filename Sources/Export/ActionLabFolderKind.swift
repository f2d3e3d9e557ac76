import Foundation
import Sweeps

/// What an existing folder is among ActionLab's own outputs, told by the files each kind writes.
///
/// A command that writes a folder of one kind refuses a folder of another: `export` refuses a
/// sweep, trial or predictions folder, `predict --output` every other kind here, `check --output`
/// every kind. Each kind is known by its marker
/// files (``markerFiles``); a trial folder also holds a single model's `weights.h5` and
/// `config.json`, so a folder can be of more than one kind, and ``kinds(of:)`` lists them all.
public enum ActionLabFolderKind: Sendable, CaseIterable, CustomStringConvertible {
    /// `actionlab run`'s sweep folder: `sweep.json` (``SweepRecord/fileName``).
    case sweep
    /// A trial folder of a sweep, finished or not: `complete.json`, `metrics.json` or `provenance.json`.
    case trial
    /// ``ModelExporter``'s export of one model: `weights.h5`, `weights.safetensors`,
    /// `model.mlmodel` or `config.json`.
    case singleModelExport
    /// ``EnsembleExporter``'s export of a stream ensemble: `ensemble.json`.
    case ensembleExport
    /// `actionlab predict`'s output folder: `predict-run.json` (``predictionsRecordName``), beside
    /// a folder per stream.
    case predictions

    /// The record a predictions folder holds of the stream folders its run wrote.
    public static let predictionsRecordName = "predict-run.json"

    /// The files whose presence marks the kind.
    public var markerFiles: [String] {
        switch self {
        case .sweep: [SweepRecord.fileName]
        case .trial: [TrialRunner.completionMarker, "metrics.json", "provenance.json"]
        case .singleModelExport: ExportDestination.singleModelFiles
        case .ensembleExport: [EnsembleExporter.descriptionName]
        case .predictions: [Self.predictionsRecordName]
        }
    }

    /// The file that marks a folder of this kind that holds folders of its own (a sweep's
    /// `trials/`, a trial's `scores/`, an ensemble's `members/`), a name no other tool writes:
    /// `sweep.json`, `complete.json`, `ensemble.json`, `predict-run.json`; nil for a model export,
    /// which holds no folders.
    public var folderMarker: String? {
        switch self {
        case .sweep: SweepRecord.fileName
        case .trial: TrialRunner.completionMarker
        case .singleModelExport: nil
        case .ensembleExport: EnsembleExporter.descriptionName
        case .predictions: Self.predictionsRecordName
        }
    }

    /// `a sweep folder of actionlab run`, `a trial folder of actionlab run`, `a model export
    /// folder`, `a stream-ensemble export folder`, `a predictions folder of actionlab predict`.
    public var description: String {
        switch self {
        case .sweep: "a sweep folder of actionlab run"
        case .trial: "a trial folder of actionlab run"
        case .singleModelExport: "a model export folder"
        case .ensembleExport: "a stream-ensemble export folder"
        case .predictions: "a predictions folder of actionlab predict"
        }
    }

    /// The kinds `folder` is, in declaration order, each with the first of its marker files
    /// found; empty for a folder of none of them, a file, or nothing at all.
    public static func kinds(of folder: URL) -> [(kind: ActionLabFolderKind, marker: String)] {
        allCases.compactMap { kind in
            kind.markerFiles.first { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
                .map { (kind, $0) }
        }
    }
}
