import AtomicFiles
import Foundation
import ModelExport
import Protobuf
import Reports

/// Exports the best (or a named) trial of a report: `model.onnx`, `weights.safetensors`,
/// `weights.h5`, `model.mlmodel`, `config.json` and `model-card.md`.
///
/// Every file is made in memory first; then the folder's earlier export is removed, every format
/// of it, and each new file is written to a temporary name and renamed into place
/// (``AtomicFile``): a failed export leaves the earlier one as it was, and the folder never holds
/// files of two models. The outputs depend only on the trial's files: exporting twice gives
/// identical bytes.
public struct ModelExporter {
    /// What one export wrote.
    public struct Result {
        /// How the trial was chosen.
        public var selection: TrialSelection
        /// The files written, model card last.
        public var files: [URL]
    }

    /// The model card's file name.
    public static let modelCardName = "model-card.md"
    /// The copy of the trial's `config.json` (seed and resolved configuration), always written.
    public static let configurationName = "config.json"

    /// The formats to write; the model card is always written.
    public var formats: Set<ExportFormat>

    /// Creates an exporter.
    ///
    /// - Parameter formats: The formats to write (default: ``ExportFormat/defaultFormats``).
    public init(formats: Set<ExportFormat> = ExportFormat.defaultFormats) {
        self.formats = formats
    }

    /// Chooses a trial in `directory` and writes its export into `output`.
    ///
    /// - Parameters:
    ///   - directory: A trial folder, or a sweep folder with `trials/*/` trials.
    ///   - trialID: The trial to export instead of the best by ``TrialSelection``'s rule.
    ///   - output: The export folder; created if needed. The files of an earlier export in it are
    ///     removed, those of formats not written this time included; other files are kept.
    /// - Returns: The selection and the files written.
    /// - Throws: ``ExportError`` for missing, unreadable or inconsistent trial files;
    ///   ``ExportError/unsuitableOutput(path:reason:)`` when `output` is a run's folder or holds a
    ///   stream-ensemble export; `ModelExportError` or `SafetensorsError` if the model cannot be translated;
    ///   `AtomicFileError` if a file cannot be written.
    public func export(from directory: URL, trialID: String? = nil, to output: URL) throws -> Result {
        let selection = try TrialSelection.select(in: directory, trialID: trialID)
        let artifacts = try TrialArtifacts(folder: selection.chosen.folder)
        let model = try artifacts.makeModel()
        let metadata = Self.metadata(of: artifacts, selection: selection)

        var files: [(name: String, data: Data)] = []
        for format in formats.sorted() {
            switch format {
            case .onnx:
                guard let exportable = model as? any ONNXExportable else {
                    throw ExportError.unsupportedModel(kind: artifacts.configuration.model.kind, format: "ONNX")
                }
                let onnx = try ONNXClassifierExporter(producerVersion: Provenance.actionlabVersion).model(
                    of: exportable, window: artifacts.window, graphName: artifacts.configuration.name, metadata: metadata,
                    documentation: "Action classifier \(artifacts.configuration.name), trial \(artifacts.folder.id)")
                files.append((format.fileName, onnx.serializedData()))
            case .safetensors:
                let file = SafetensorsFile(
                    tensors: artifacts.checkpoint.model, metadata: Dictionary(metadata, uniquingKeysWith: { first, _ in first }))
                files.append((format.fileName, try file.serialized()))
            case .h5:
                files.append((format.fileName, try Self.contents(of: artifacts.folder.file("weights.h5"))))
            case .coreml:
                guard let exportable = model as? any CoreMLExportable else {
                    throw ExportError.unsupportedModel(kind: artifacts.configuration.model.kind, format: "Core ML")
                }
                let coreML = try CoreMLClassifierExporter(version: Provenance.actionlabVersion).model(
                    of: exportable, window: artifacts.window, labels: artifacts.labels, metadata: metadata,
                    description: "Action classifier \(artifacts.configuration.name), trial \(artifacts.folder.id)")
                files.append((format.fileName, coreML.serializedData()))
            }
        }
        // The resolved configuration beside the weights, so the export folder alone rebuilds the
        // model (`actionlab predict EXPORT_DIR`, ``TrainedModel``).
        files.append((Self.configurationName, try Self.contents(of: artifacts.folder.file(Self.configurationName))))
        let hashes = try ExportDestination.hashes(of: files)
        let card = ModelCard(artifacts: artifacts, selection: selection, files: hashes)
        files.append((Self.modelCardName, Data(card.markdown.utf8)))

        try ExportDestination.prepare(output, for: .singleModel)
        let written = try ExportDestination.replaceExport(with: files, in: output, earlierExport: Self.fileNames)
        return Result(selection: selection, files: written)
    }

    /// Every file a single-model export may write: each format's, `config.json` and the model card.
    static let fileNames = ExportFormat.allCases.map(\.fileName) + [configurationName, modelCardName]

    /// The metadata stored in `model.onnx` (`metadata_props`), `model.mlmodel`
    /// (`Metadata.userDefined`) and `weights.safetensors` (`__metadata__`): what an app needs to feed the model and where it came from.
    static func metadata(of artifacts: TrialArtifacts, selection: TrialSelection) -> [(key: String, value: String)] {
        let configuration = artifacts.configuration
        let layout = configuration.features.layout
        return [
            ("labels", jsonArray(artifacts.labels)),
            ("frame_rate", NumberFormat.exact(configuration.windows.frameRate)),
            ("window_size", "\(configuration.windows.size)"),
            ("action_duration", NumberFormat.exact(configuration.windows.actionDuration)),
            ("sampling", configuration.windows.sampling.rawValue),
            ("layout", layout.name),
            ("joints", jsonArray(layout.joints)),
            ("channels", jsonArray(layout.channels)),
            ("input_shape", "\(artifacts.window)"),
            ("model", configuration.model.kind),
            ("experiment", configuration.name),
            ("trial", artifacts.folder.id),
            ("seed", "\(artifacts.seed)"),
            ("selection_rule", selection.rule),
            ("actionlab_version", artifacts.provenance.actionlabVersion),
            ("git_commit", artifacts.provenance.gitCommit),
        ]
    }

    private static func jsonArray(_ values: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(values), as: UTF8.self)) ?? "[]"
    }

    /// The bytes of a trial file, or ``ExportError/unreadableFile(path:reason:)``.
    static func contents(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ExportError.unreadableFile(path: url.path, reason: FileErrorReason.of(error))
        }
    }
}
