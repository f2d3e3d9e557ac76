import AtomicFiles
import ContentHashing
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
    /// - Throws: ``ExportError/unsuitableOutput(path:reason:)`` for a run's sweep or trial folder,
    ///   a predictions folder or a folder holding another export; `AtomicFileError` when it cannot be created.
    static func prepare(_ output: URL, for kind: Kind) throws {
        let manager = FileManager.default
        func exists(_ name: String) -> Bool { manager.fileExists(atPath: output.appendingPathComponent(name).path) }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ExportError.unsuitableOutput(path: output.path, reason: "it is a file, not a folder") }
            if let (other, marker) = ActionLabFolderKind.kinds(of: output).first(where: { [.sweep, .trial, .predictions].contains($0.kind) }) {
                throw ExportError.unsuitableOutput(
                    path: output.path, reason: "it is \(other) (it holds \(marker)); export into a folder of its own")
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
            throw AtomicFileError(path: output.path, operation: "create folder", reason: FileErrorReason.of(error))
        }
    }

    /// The SHA-256 (lowercase hex) of each file's contents, for model cards and descriptions.
    /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL cannot hash.
    static func hashes(of files: [(name: String, data: Data)]) throws -> [(name: String, sha256: String)] {
        try files.map { (name: $0.name, sha256: try ContentHash.sha256(of: $0.data).description) }
    }

    /// Replaces the export in the prepared folder `output` with `files`, written in order.
    ///
    /// Every file is made before this is called, so an export that fails (a model that cannot
    /// be translated, an unreadable trial file) leaves the earlier export untouched. Then every
    /// file of `earlierExport` is removed first, those the new export writes again included, so
    /// that the folder never mixes two models: a format the new export does not write (a
    /// `model.mlmodel` beside a new `weights.h5`) would otherwise describe the old model, and an
    /// export killed half-way would leave the old `weights.h5` beside the new `config.json`. Killed
    /// half-way, the folder lacks files, which `actionlab predict` reports by name.
    ///
    /// - Parameters:
    ///   - files: Paths relative to `output` (`members/joint/weights.h5`) and their contents.
    ///   - output: The export folder, from ``prepare(_:for:)``.
    ///   - earlierExport: Relative paths an earlier export may have written.
    /// - Returns: The files written, in the order of `files`.
    /// - Throws: ``ExportError/unsuitableOutput(path:reason:)`` if an earlier file cannot be
    ///   removed; `AtomicFileError` if a file cannot be written.
    static func replaceExport(with files: [(name: String, data: Data)], in output: URL, earlierExport: [String]) throws -> [URL] {
        for name in Set(earlierExport + files.map(\.name)).sorted() {
            let url = output.appendingPathComponent(name)
            guard unlink(url.path) == 0 || errno == ENOENT else {
                throw ExportError.unsuitableOutput(
                    path: output.path, reason: "cannot remove the earlier export's \(name): \(String(cString: strerror(errno)))")
            }
        }
        return try files.map { file in
            let url = output.appendingPathComponent(file.name)
            try AtomicFile.write(file.data, to: url)
            return url
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
