import Foundation

/// Why a trained model could not be exported; every case names the folder or file concerned.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// The folder to export from does not exist.
    case folderNotFound(path: String)
    /// The folder is neither a trial folder nor a sweep folder with finished or unfinished `trials/*/` folders.
    case noTrials(folder: String)
    /// Trial folders exist but none holds every file an export needs (all unfinished).
    case noCompleteTrials(folder: String, missing: [String])
    /// `--trial` named a trial the report does not have.
    case unknownTrial(String, folder: String, available: [String])
    /// No candidate has validation metrics, so the selection rule cannot rank them.
    case noValidationMetrics(folder: String, candidates: [String])
    /// A file that should be in a trial folder is absent.
    case missingFile(path: String, purpose: String)
    /// A trial file exists but cannot be read or decoded.
    case unreadableFile(path: String, reason: String)
    /// The trial's files disagree with each other or with the model they describe.
    case inconsistentTrial(path: String, reason: String)
    /// The model kind has no translation to the requested format.
    case unsupportedModel(kind: String, format: String)
    /// `--format` named something that is not a format.
    case unknownFormat(String, known: [String])
    /// The folder holds no stream ensemble to export (not a sweep over `model.stream`, or no seed
    /// with every stream finished).
    case noEnsemble(folder: String, reason: String)
    /// `--seed` names a seed the ensemble did not fuse.
    case unknownSeed(Int, folder: String, available: [Int])
    /// The export folder is a run's own folder or holds another export.
    case unsuitableOutput(path: String, reason: String)

    public var description: String {
        switch self {
        case let .folderNotFound(path):
            return "\(path): no such folder"
        case let .noTrials(folder):
            return "\(folder): not a trial, export or sweep folder: it holds no weights.h5 and no trials/*/ folders (a sweep "
                + "folder of actionlab run has them once its trials have run)"
        case let .noCompleteTrials(folder, missing):
            return "\(folder): no complete trial to export; " + missing.joined(separator: "; ")
        case let .unknownTrial(id, folder, available):
            return "\(folder): no trial '\(id)'; available: \(available.joined(separator: ", "))"
        case let .noValidationMetrics(folder, candidates):
            return "\(folder): no trial has validation metrics (\(candidates.joined(separator: ", "))), so the best "
                + "cannot be chosen by validation accuracy; name one: `actionlab export --trial ID`, or give `actionlab predict` "
                + "the trial's folder (\(folder)/trials/ID)"
        case let .missingFile(path, purpose):
            return "\(path): missing (\(purpose))"
        case let .unreadableFile(path, reason):
            return "\(path): cannot read: \(reason)"
        case let .inconsistentTrial(path, reason):
            return "\(path): \(reason)"
        case let .unsupportedModel(kind, format):
            return "model kind '\(kind)' cannot be exported as \(format)"
        case let .unknownFormat(name, known):
            return "unknown export format '\(name)'; expected a comma-separated list of \(known.joined(separator: ", "))"
        case let .noEnsemble(folder, reason):
            return "\(folder): no stream ensemble to export: \(reason)"
        case let .unknownSeed(seed, folder, available):
            return "\(folder): the ensemble has no fused seed \(seed); fused seeds: \(available.map(String.init).joined(separator: ", "))"
        case let .unsuitableOutput(path, reason):
            return "\(path): cannot export here: \(reason)"
        }
    }
}
