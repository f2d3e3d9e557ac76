import AtomicFiles
import ContentHashing
import Foundation
import ModelExport
import NeuralNetwork
import Reports

/// Exports a sweep's stream ensemble (``EnsembleSelection``) as one model: `model.onnx` with
/// every stream in one graph, `ensemble.json`, each member's `members/<stream>/config.json` and
/// `members/<stream>/weights.h5`, and `model-card.md`.
///
/// Every file is made in memory first, then the folder's earlier ensemble export is removed and
/// each file written to a temporary name and renamed into place (``AtomicFile``), as
/// ``ModelExporter`` does; exporting twice gives identical bytes.
public struct EnsembleExporter {
    /// What one export wrote.
    public struct Result {
        /// How the ensemble and seed were chosen.
        public var selection: EnsembleSelection
        /// The files written, model card last.
        public var files: [URL]
    }

    /// The file that lists the members, `ensemble.json`.
    public static let descriptionName = "ensemble.json"
    /// The folder of the members' own files.
    public static let membersFolderName = "members"

    /// `ensemble.json`: what `model.onnx` fuses, for a reader that rebuilds the members.
    public struct Description: Codable, Sendable, Equatable {
        /// One stream of the ensemble.
        public struct Member: Codable, Sendable, Equatable {
            /// The stream, `joint`, `bone`, `jointMotion` or `boneMotion`.
            public var stream: String
            /// Its weight as the sweep states it; the fusion divides by the sum of the weights.
            public var weight: Double
            /// The trial it came from, `trials/<id>`.
            public var trial: String
            /// Its folder inside the export folder, `members/<stream>`.
            public var folder: String
            /// SHA-256 (lowercase hex) of its `config.json`, checked when the folder is read.
            public var configurationSHA256: String
            /// SHA-256 (lowercase hex) of its `weights.h5`, checked when the folder is read.
            public var weightsSHA256: String
        }
        /// The format's name, `actionlab-stream-ensemble`.
        public static let format = "actionlab-stream-ensemble"
        /// ``format``.
        public var format = Description.format
        /// 1.
        public var formatVersion = 1
        /// The seed shared by every member.
        public var seed: Int
        /// Class names in the order of the outputs.
        public var labels: [String]
        /// The members in stream order.
        public var members: [Member]
        /// How the ensemble was chosen.
        public var selectionRule: String
        /// ``contentDigest()`` when the export was written: the members' weights and files, the
        /// labels and the seed are checked against it when the folder is read, so an edited
        /// fusion weight is refused instead of fusing with other weights than `model.onnx`'s.
        /// Absent from exports written before 2026-12-07 (read unchecked).
        public var digest: String?

        /// SHA-256 (lowercase hex) of `seed`, each label, and each member's stream, weight
        /// (Swift's shortest decimal text that reads back to the same Double), trial, folder and
        /// the two file hashes, in order, each followed by a NUL byte (``ContentHash/sha256(ofFields:)``).
        /// - Throws: `ContentHashError.cryptoFailure` if OpenSSL fails.
        public func contentDigest() throws -> String {
            var fields = ["\(seed)"] + labels
            for member in members {
                fields += [member.stream, "\(member.weight)", member.trial, member.folder, member.configurationSHA256, member.weightsSHA256]
            }
            return try ContentHash.sha256(ofFields: fields).hexDigest
        }
    }

    /// Creates an exporter.
    public init() {}

    /// Chooses an ensemble of the sweep folder `directory` and writes it into `output`.
    ///
    /// - Parameters:
    ///   - directory: A sweep folder whose sweep has `model.stream` on an axis.
    ///   - seed: The seed to export instead of the rule's choice.
    ///   - trialID: A member trial whose ensemble and seed to export instead.
    ///   - output: The export folder; created if needed, files of an earlier export of an ensemble
    ///     of the same streams are replaced.
    /// - Returns: The selection and the files written.
    /// - Throws: ``ExportError`` for a folder without an ensemble, a missing or inconsistent member
    ///   (labels or window differing between streams), an `output` that is a run's folder or holds
    ///   another export (``ExportError/unsuitableOutput(path:reason:)``); ``ModelExportError`` if a member cannot be
    ///   translated to ONNX; `AtomicFileError` if a file cannot be written.
    public func export(from directory: URL, seed: Int? = nil, trialID: String? = nil, to output: URL) throws -> Result {
        let selection = try EnsembleSelection.select(in: directory, seed: seed, trialID: trialID)
        let members = try selection.members.map { try TrialArtifacts(folder: $0.folder) }
        guard let first = members.first else {
            throw ExportError.noEnsemble(folder: directory.path, reason: "the ensemble has no member")
        }
        for (member, artifacts) in zip(selection.members, members) {
            if artifacts.labels != first.labels || artifacts.window != first.window {
                throw ExportError.inconsistentTrial(
                    path: member.folder.url.path,
                    reason: "its labels or window \(artifacts.window) differ from those of \(selection.members[0].folder.id) \(first.window)")
            }
        }
        var classifiers: [(scope: String, classifier: any ONNXExportable, weight: Double)] = []
        for (member, artifacts) in zip(selection.members, members) {
            guard let exportable = try artifacts.makeModel() as? any ONNXExportable else {
                throw ExportError.unsupportedModel(kind: artifacts.configuration.model.kind, format: "ONNX")
            }
            classifiers.append((member.stream.rawValue, exportable, member.weight))
        }

        var files: [(name: String, data: Data)] = []
        let onnx = try ONNXClassifierExporter(producerVersion: Provenance.actionlabVersion).model(
            ofEnsemble: classifiers, window: first.window, graphName: first.configuration.name,
            metadata: Self.metadata(selection: selection, members: members),
            documentation: "Stream ensemble \(selection.chosen.streamsText) of \(first.configuration.name), seed \(selection.seed.seed)")
        files.append(("model.onnx", onnx.serializedData()))
        for (member, artifacts) in zip(selection.members, members) {
            let folder = "\(Self.membersFolderName)/\(member.stream.rawValue)/"
            files.append((folder + ModelExporter.configurationName,
                          try ModelExporter.contents(of: artifacts.folder.file(ModelExporter.configurationName))))
            files.append((folder + "weights.h5", try ModelExporter.contents(of: artifacts.folder.file("weights.h5"))))
        }
        var hashes = try ExportDestination.hashes(of: files)
        func hash(_ name: String) -> String { hashes.first { $0.name == name }?.sha256 ?? "" }
        var description = Description(
            seed: selection.seed.seed, labels: first.labels,
            members: selection.members.map {
                let folder = "\(Self.membersFolderName)/\($0.stream.rawValue)"
                return .init(stream: $0.stream.rawValue, weight: $0.weight, trial: $0.folder.id, folder: folder,
                             configurationSHA256: hash(folder + "/" + ModelExporter.configurationName),
                             weightsSHA256: hash(folder + "/weights.h5"))
            },
            selectionRule: selection.rule)
        description.digest = try description.contentDigest()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let descriptionData = try encoder.encode(description)
        files.append((Self.descriptionName, descriptionData))
        hashes += try ExportDestination.hashes(of: [(Self.descriptionName, descriptionData)])
        let card = EnsembleModelCard(selection: selection, members: members, files: hashes)
        files.append((ModelExporter.modelCardName, Data(card.markdown.utf8)))

        try ExportDestination.prepare(output, for: .ensemble(members: selection.members.map(\.stream.rawValue)))
        let written = try ExportDestination.replaceExport(
            with: files, in: output, earlierExport: [Self.descriptionName, "model.onnx", ModelExporter.modelCardName])
        return Result(selection: selection, files: written)
    }

    /// The metadata of `model.onnx`: the first member's (labels, frame rate, window, layout, …)
    /// with `model`, `trial` and `seed` describing the ensemble, and its streams and weights.
    static func metadata(selection: EnsembleSelection, members: [TrialArtifacts]) -> [(key: String, value: String)] {
        guard let first = members.first else { return [] }
        let single = TrialSelection(
            candidates: [], chosen: .init(folder: first.folder, validationAccuracy: nil, validationLoss: nil, testAccuracy: nil),
            rule: selection.rule, incomplete: [])
        let ensemble: [String: String] = [
            "model": "ensemble of \(first.configuration.model.kind) (\(selection.chosen.streamsText))",
            "trial": selection.members.map(\.folder.id).joined(separator: " "),
        ]
        return ModelExporter.metadata(of: first, selection: single).map { ($0.key, ensemble[$0.key] ?? $0.value) } + [
            ("ensemble_streams", selection.members.map(\.stream.rawValue).joined(separator: " ")),
            ("ensemble_weights", selection.members.map { "\($0.weight)" }.joined(separator: " ")),
        ]
    }
}
