import Foundation
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
/// `metrics.json` (JSON objects), and `weights.h5` unless the trial diverged
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
        /// configuration, `provenance.json` and `metrics.json` as JSON objects): its name, and
        /// the reason with file, line and column.
        case unreadableJSON(file: String, reason: String)
        /// `weights.h5` does not open: why (``Checkpoint/openingProblem(at:)``: truncated, not HDF5).
        case unreadableWeights(String)
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
    /// - Returns: nil when nothing is at `folder`.
    public init?(folder: URL, name: String) {
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
        for file in Self.jsonFileNames where !absent.contains(file) {
            if let reason = Self.jsonProblem(file, in: folder, name: name) {
                problems.append(.unreadableJSON(file: file, reason: reason))
            }
        }
        if weightsExpected, !absent.contains(Self.weightsName),
           let reason = Checkpoint.openingProblem(at: folder.appendingPathComponent(Self.weightsName)) {
            problems.append(.unreadableWeights(reason))
        }
        self.problems = problems
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

    /// Why `file`, one of ``jsonFileNames``, cannot be read or decoded, with file and line; or nil.
    private static func jsonProblem(_ file: String, in folder: URL, name: String) -> String? {
        struct AnyObject: Decodable {
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            init(from decoder: Decoder) throws { _ = try decoder.container(keyedBy: Key.self) }
        }
        let path = "\(name)/\(file)"
        do {
            let data = try read(file, in: folder, name: name)
            if file == "config.json" {
                _ = try JSONDocument.decode(TrialConfigurationFile.self, from: data, filePath: path)
            } else {
                _ = try JSONDocument.decode(AnyObject.self, from: data, filePath: path)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
