import AtomicFiles
import Foundation
import Sweeps

/// The folder an export is written into, checked first so that it always describes one model:
/// never a run's own sweep or trial folder, and never a folder that holds the other kind of
/// export (a single model's `weights.h5` beside an ensemble's `ensemble.json`, or members of
/// another ensemble), which `actionlab predict` would then read instead of what was exported.
enum ExportDestination {
    /// What is about to be written.
    enum Kind {
        /// ``ModelExporter``'s files.
        case singleModel
        /// ``EnsembleExporter``'s files, with the member folders it writes (`members/<stream>`).
        case ensemble(members: [String])
    }

    /// The files of a single-model export that an ensemble export does not write.
    static let singleModelFiles = ["weights.h5", "weights.safetensors", "model.mlmodel", ModelExporter.configurationName]

    /// Refuses an unsuitable folder, then creates it (and its parents) if needed.
    ///
    /// - Throws: ``ExportError/unsuitableOutput(path:reason:)`` for a run's sweep or trial folder
    ///   or a folder holding another export; `AtomicFileError` when it cannot be created.
    static func prepare(_ output: URL, for kind: Kind) throws {
        let manager = FileManager.default
        func exists(_ name: String) -> Bool { manager.fileExists(atPath: output.appendingPathComponent(name).path) }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ExportError.unsuitableOutput(path: output.path, reason: "it is a file, not a folder") }
            if exists(SweepRecord.fileName) || exists("metrics.json") || exists("provenance.json") {
                throw ExportError.unsuitableOutput(
                    path: output.path, reason: "it is a sweep or trial folder of actionlab run; export into a folder of its own")
            }
            switch kind {
            case .singleModel:
                let found = [EnsembleExporter.descriptionName, EnsembleExporter.membersFolderName].filter(exists)
                if !found.isEmpty {
                    throw ExportError.unsuitableOutput(
                        path: output.path, reason: "it holds a stream-ensemble export (\(found.joined(separator: ", "))); "
                            + "export into another folder or remove it first")
                }
            case let .ensemble(members):
                let found = singleModelFiles.filter(exists)
                if !found.isEmpty {
                    throw ExportError.unsuitableOutput(
                        path: output.path, reason: "it holds a single-model export (\(found.joined(separator: ", "))); "
                            + "export into another folder or remove it first")
                }
                let folder = output.appendingPathComponent(EnsembleExporter.membersFolderName)
                let others = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? [])
                    .filter { !$0.hasPrefix(".") && !members.contains($0) }.sorted()
                if !others.isEmpty {
                    throw ExportError.unsuitableOutput(
                        path: output.path, reason: "its \(EnsembleExporter.membersFolderName)/ holds streams of another ensemble "
                            + "(\(others.joined(separator: ", "))); export into another folder or remove it first")
                }
            }
        }
        do {
            try manager.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            // Foundation's message for a file in the way says only that the operation failed.
            if let file = fileInTheWay(of: output) {
                throw ExportError.unsuitableOutput(path: output.path, reason: "\(file.path) is a file, not a folder")
            }
            throw AtomicFileError(path: output.path, operation: "create folder", reason: error.localizedDescription)
        }
    }

    /// The nearest existing ancestor of `url` if it is a file rather than a folder.
    private static func fileInTheWay(of url: URL) -> URL? {
        var current = url.standardizedFileURL
        while current.path != "/" {
            current = current.deletingLastPathComponent()
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: current.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? nil : current
            }
        }
        return nil
    }
}
