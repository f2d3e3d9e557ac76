import Foundation
import HDF5
import JSON5
import NeuralNetwork
import Reports
import Training

/// Whether a trial folder holds a whole finished trial, and what is wrong with it if not: the one
/// judgement that `run` and `status` (``TrialRunner/outcome(of:in:)``,
/// ``TrialRunner/damage(of:in:)``) and `export` and `predict` (the Export module's `TrialFolder`)
/// all make.
///
/// A finished trial folder holds its completion marker `complete.json` (a ``TrialOutcome``,
/// written last), `config.json` (a ``TrialConfigurationFile``), `provenance.json` and
/// `metrics.json` (a ``Provenance`` and a ``TrialMetrics``), and `weights.h5` unless the trial diverged
/// (``TrialOutcome/diverged``). The check reads the marker and the three JSON files whole and opens
/// `weights.h5` far enough to read its superblock and root attributes
/// (``Checkpoint/openingProblem(at:)``); the tensors' checksums are verified when they are loaded.
public struct TrialFolderCheck: Sendable {
    /// One thing wrong with a trial folder.
    public enum Problem: Sendable, Equatable {
        /// The path is a file.
        case notAFolder
        /// Files of a finished trial that are absent, by name within the folder, in
        /// ``TrialFolderCheck/finishedFileNames`` order; with the completion marker among them
        /// when the trial never finished.
        case missing([String])
        /// The completion marker is there but cannot be read or does not decode as a
        /// ``TrialOutcome``: the reason, with file, line and column when it is a parse error.
        case unreadableMarker(String)
        /// A JSON file that cannot be read or does not decode (`config.json` as the trial's
        /// configuration, `provenance.json` as a ``Provenance``, `metrics.json` as a
        /// ``TrialMetrics``, as `export` and `compare` read them): its name, and
        /// the reason with file, line and column.
        case unreadableJSON(file: String, reason: String)
        /// `weights.h5` does not open (``Checkpoint/openingProblem(at:)``: truncated, not HDF5) or,
        /// checked with its tensors, one of them fails its Fletcher-32 checksum: why.
        case unreadableWeights(String)
        /// A file that reads but disagrees with the completion marker (`config.json` of another
        /// seed or trial, `provenance.json` of another seed, `metrics.json` with other scores, `weights.h5` of another seed or trial):
        /// its name and the disagreement. The marker is what the leaderboard ranks by and
        /// `metrics.json` what `export` chooses by, so an edit to either would change a result.
        case inconsistent(file: String, reason: String)
    }

    /// The completion marker's name.
    public static let markerName = "complete.json"
    /// The JSON files a finished trial holds besides its marker.
    public static let jsonFileNames = ["config.json", "metrics.json", "provenance.json"]
    /// The weights' name.
    public static let weightsName = "weights.h5"
    /// Every file of a finished trial that did not diverge, in the order problems name them.
    public static let finishedFileNames = [weightsName] + jsonFileNames + [markerName]

    /// The folder checked.
    public let folder: URL
    /// How messages name the folder: `trials/<id>` in a sweep, or the folder's own name.
    public let name: String
    /// The decoded completion marker, or nil when it is absent or unreadable.
    public let outcome: TrialOutcome?
    /// What is wrong, in the order found; empty for a whole finished trial. An unfinished trial
    /// (no marker) has only ``Problem/missing(_:)``: nothing else is checked before it finishes.
    public let problems: [Problem]

    /// Whether the folder holds a whole finished trial: its ``outcome`` is to be trusted.
    public var isWhole: Bool { outcome != nil && problems.isEmpty }

    /// Checks `folder`.
    /// - Parameters:
    ///   - folder: The trial folder.
    ///   - name: How messages name it (`trials/<id>`).
    ///   - verifyingTensors: Whether to read every tensor of `weights.h5` (its Fletcher-32
    ///     checksums; a few milliseconds to a few tens for a model) and compare its recorded
    ///     seed and trial with the marker's, rather than only its superblock and root attributes.
    ///     `run` and `status` do, so that a changed byte is repaired; the readers that load the
    ///     weights anyway (`export`, `predict`) need not.
    /// - Returns: nil when nothing is at `folder`.
    public init?(folder: URL, name: String, verifyingTensors: Bool = false) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return nil }
        self.folder = folder
        self.name = name
        guard isDirectory.boolValue else {
            outcome = nil
            problems = [.notAFolder]
            return
        }
        func exists(_ file: String) -> Bool {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path)
        }
        guard exists(Self.markerName) else {
            outcome = nil
            problems = [.missing(Self.finishedFileNames.filter { !exists($0) })]
            return
        }
        var problems: [Problem] = []
        let outcome: TrialOutcome?
        do {
            let data = try Self.read(Self.markerName, in: folder, name: name)
            outcome = try JSONDocument.decode(TrialOutcome.self, from: data, filePath: "\(name)/\(Self.markerName)")
        } catch {
            outcome = nil
            problems.append(.unreadableMarker("\(error)"))
        }
        self.outcome = outcome
        // Without a readable marker, whether the trial diverged is unknown: weights are expected.
        let weightsExpected = outcome?.diverged == nil
        let absent = Self.finishedFileNames.filter { $0 != Self.weightsName || weightsExpected }.filter { !exists($0) }
        if !absent.isEmpty { problems.append(.missing(absent)) }
        var configuration: TrialConfigurationFile?
        var metrics: TrialMetrics?
        var provenance: Provenance?
        for file in Self.jsonFileNames where !absent.contains(file) {
            do {
                let data = try Self.read(file, in: folder, name: name)
                let path = "\(name)/\(file)"
                switch file {
                case "config.json": configuration = try JSONDocument.decode(TrialConfigurationFile.self, from: data, filePath: path)
                case "metrics.json": metrics = try JSONDocument.decode(TrialMetrics.self, from: data, filePath: path)
                default: provenance = try JSONDocument.decode(Provenance.self, from: data, filePath: path)
                }
            } catch {
                problems.append(.unreadableJSON(file: file, reason: "\(error)"))
            }
        }
        if let outcome {
            if let configuration, let reason = Self.disagreement(of: configuration, with: outcome) {
                problems.append(.inconsistent(file: "config.json", reason: reason))
            }
            if let metrics, let reason = Self.disagreement(of: metrics, with: outcome) {
                problems.append(.inconsistent(file: "metrics.json", reason: reason))
            }
            if let provenance, provenance.seed != outcome.seed {
                problems.append(.inconsistent(file: Provenance.fileName,
                                              reason: "seed \(provenance.seed), where complete.json says seed \(outcome.seed)"))
            }
        }
        if weightsExpected, !absent.contains(Self.weightsName) {
            let weights = folder.appendingPathComponent(Self.weightsName)
            if !verifyingTensors {
                if let reason = Checkpoint.openingProblem(at: weights) { problems.append(.unreadableWeights(reason)) }
            } else {
                do {
                    let checkpoint = try Checkpoint(contentsOf: weights)
                    if let outcome, let reason = Self.disagreement(of: checkpoint, with: outcome) {
                        problems.append(.inconsistent(file: Self.weightsName, reason: reason))
                    }
                } catch let error as HDF5Error {
                    problems.append(.unreadableWeights(error.hdf5Message.isEmpty ? "\(error)" : "\(error.hdf5Message)"
                        + (error.objectPath.map { " (\($0))" } ?? "")))
                } catch let error as CheckpointError {
                    problems.append(.unreadableWeights(error.problem))
                } catch {
                    problems.append(.unreadableWeights("\(error)"))
                }
            }
        }
        self.problems = problems
    }

    /// How `config.json` disagrees with the marker, or nil.
    private static func disagreement(of configuration: TrialConfigurationFile, with outcome: TrialOutcome) -> String? {
        if configuration.seed != outcome.seed { return "seed \(configuration.seed), where complete.json says seed \(outcome.seed)" }
        if configuration.trial != outcome.id { return "trial \(configuration.trial), where complete.json says trial \(outcome.id)" }
        return nil
    }

    /// How `metrics.json` disagrees with the marker's scores (both written from one evaluation,
    /// so equal to the last bit), or nil.
    private static func disagreement(of metrics: TrialMetrics, with outcome: TrialOutcome) -> String? {
        guard outcome.diverged == nil else { return nil }
        if Set(metrics.splits.keys) != Set(outcome.splits.keys) {
            return "splits \(metrics.splits.keys.sorted().joined(separator: ", ")), where complete.json has "
                + outcome.splits.keys.sorted().joined(separator: ", ")
        }
        for (split, marker) in outcome.splits.sorted(by: { $0.key < $1.key }) {
            guard let recorded = metrics.splits[split] else { continue }
            let window = recorded.window
            let pairs: [(String, Double?, Double?)] = [
                ("accuracy", window.accuracy, marker.accuracy), ("macro_f1", window.macroF1, marker.macroF1),
                ("loss", window.loss, marker.loss), ("count", Double(window.count), Double(marker.windows)),
                ("sequence accuracy", recorded.sequence?.accuracy ?? marker.sequenceAccuracy, marker.sequenceAccuracy),
                ("sequence macro_f1", recorded.sequence?.macroF1 ?? marker.sequenceMacroF1, marker.sequenceMacroF1),
            ]
            for (key, value, expected) in pairs where value != expected {
                return "\(split) \(key) \(value.map { "\($0)" } ?? "none"), where complete.json says \(expected.map { "\($0)" } ?? "none")"
            }
        }
        return nil
    }

    /// How the weights' recorded seed and trial disagree with the marker, or nil.
    private static func disagreement(of weights: Checkpoint, with outcome: TrialOutcome) -> String? {
        if let seed = weights[.seed], seed != "\(outcome.seed)" { return "seed \(seed), where complete.json says seed \(outcome.seed)" }
        if let trial = weights[.trial], trial != outcome.id { return "trial \(trial), where complete.json says trial \(outcome.id)" }
        return nil
    }

    /// The first problem as one sentence naming the file (`trials/<id>/weights.h5 cannot be
    /// read: truncated file: …`), for `status` and for the folders `run` sets aside; nil when whole.
    public var damage: String? {
        problems.first.map { problem in
            switch problem {
            case .notAFolder:
                return "\(name) is a file, not a trial folder"
            case .missing(let files) where files.contains(Self.markerName):
                return "\(name)/\(Self.markerName) is missing or cannot be read"
            case .missing(let files):
                return files.map { "\(name)/\($0)" }.joined(separator: ", ") + (files.count == 1 ? " is" : " are")
                    + " missing from the finished trial"
            case .unreadableMarker(let reason), .unreadableJSON(_, let reason):
                return reason
            case .unreadableWeights(let reason):
                return "\(name)/\(Self.weightsName) cannot be read: \(reason)"
            case .inconsistent(let file, let reason):
                return "\(name)/\(file) disagrees with \(name)/\(Self.markerName): \(reason)"
            }
        }
    }

    /// What the folder lacks to be exported, each as the object of "lacks": an absent file's
    /// name, `weights.h5 (the trial diverged: …)` for a diverged trial, `a readable complete.json`,
    /// `a readable config.json (<parse error>)`, `a readable weights.h5 (<why>)`; empty when the
    /// folder is whole and has weights.
    public var lacking: [String] {
        var lacking: [String] = []
        if case .notAFolder = problems.first { return ["a folder (\(name) is a file)"] }
        if let diverged = outcome?.diverged, !FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.weightsName).path) {
            lacking.append("\(Self.weightsName) (the trial diverged: \(diverged))")
        }
        for problem in problems {
            switch problem {
            case .notAFolder: break
            case .missing(let files): lacking.append(contentsOf: files)
            case .unreadableMarker: lacking.append("a readable \(Self.markerName)")
            case .unreadableJSON(let file, let reason): lacking.append("a readable \(file) (\(reason))")
            case .unreadableWeights(let reason): lacking.append("a readable \(Self.weightsName) (\(reason))")
            case .inconsistent(let file, let reason): lacking.append("a \(file) that agrees with \(Self.markerName) (\(reason))")
            }
        }
        return lacking
    }

    /// The bytes of `file`, or an error naming it.
    private static func read(_ file: String, in folder: URL, name: String) throws -> Data {
        do {
            return try Data(contentsOf: folder.appendingPathComponent(file))
        } catch {
            throw ReadError(description: "\(name)/\(file) cannot be read: \(ReportError.reason(error))")
        }
    }

    private struct ReadError: Error, CustomStringConvertible {
        var description: String
    }
}
