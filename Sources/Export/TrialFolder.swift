import AtomicFiles
import Foundation
import JSON5
import NeuralNetwork
import Sweeps

/// The folder of one trained trial: `weights.h5`, `config.json`, `metrics.json` and
/// `provenance.json` (a sweep's `trials/<id>/`).
public struct TrialFolder: Sendable, Hashable {
    /// The files an export reads, with what each provides.
    /// The files are ``TrialFolderCheck/finishedFileNames``, in its order.
    public static let requiredFiles: [(name: String, purpose: String)] = TrialFolderCheck.finishedFileNames.map { name in
        (name, purposes[name] ?? "needed for the export")
    }

    private static let purposes = [
        TrialFolderCheck.weightsName: "the trained weights and the labels",
        "config.json": "the resolved configuration that rebuilds the model",
        "metrics.json": "the scores the selection rule and the model card use",
        "provenance.json": "the data checksums and software versions for the model card",
        TrialFolderCheck.markerName: "the completion marker, written last: the trial finished",
    ]

    /// The folder.
    public var url: URL
    /// The trial's name relative to the folder it was found in: `trials/<id>`, or the
    /// folder's own name when it was given directly.
    public var id: String

    /// Creates a reference to a trial folder; nothing is read.
    public init(url: URL, id: String) {
        self.url = url
        self.id = id
    }

    /// The URL of a file in the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// What the folder lacks to be exported (``TrialFolderCheck/lacking``): the required files
    /// that are absent (an unfinished trial lacks some), `weights.h5 (the trial diverged: …)`,
    /// `a readable complete.json` when the completion marker does not decode, `a readable
    /// config.json (<parse error with line>)`, `a readable weights.h5 (<why>)` when the weights
    /// do not open (``Checkpoint/openingProblem(at:)``: truncated, not HDF5): damaged after the
    /// trial finished, which `status` shows as damaged and the next run trains again. Empty
    /// when the folder can be exported.
    public var missingFiles: [String] {
        TrialFolderCheck(folder: url, name: id)?.lacking ?? Self.requiredFiles.map(\.name)
    }

    /// Whether `url` holds a trained model (`weights.h5`), i.e. is a trial folder rather than a report.
    public static func looksLikeTrial(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("weights.h5").path)
    }

    /// Decodes one of the folder's JSON files.
    ///
    /// - Throws: ``ExportError/missingFile(path:purpose:)`` if it is absent,
    ///   ``ExportError/unreadableFile(path:reason:)`` if it cannot be read or decoded.
    func decodeJSON<Value: Decodable>(_ type: Value.Type, from name: String) throws -> Value {
        let url = file(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            let purpose = Self.purposes[name] ?? "needed for the export"
            throw ExportError.missingFile(path: url.path, purpose: purpose)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ExportError.unreadableFile(path: url.path, reason: FileErrorReason.of(error))
        }
        do {
            return try JSONDocument.decode(Value.self, from: data)
        } catch {
            throw ExportError.unreadableFile(path: url.path, reason: "\(error)")
        }
    }
}
