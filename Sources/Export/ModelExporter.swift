import AtomicFiles
import FeatureCache
import Foundation
import ModelExport
import Protobuf
import Reports

/// Exports the best (or a named) trial of a report: `model.onnx`, `weights.safetensors`,
/// `weights.h5`, `model.mlmodel`, `config.json` and `model-card.md`.
///
/// Every file is written to a temporary name and renamed into place (``AtomicFile``), so an
/// interrupted export leaves each file either as it was or complete. The outputs depend only on
/// the trial's files: exporting twice gives identical bytes.
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
    ///   - output: The export folder; created if needed, files in it are replaced.
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

        try ExportDestination.prepare(output, for: .singleModel)
        var written: [(url: URL, sha256: String)] = []
        for format in formats.sorted() {
            let url = output.appendingPathComponent(format.fileName)
            switch format {
            case .onnx:
                guard let exportable = model as? any ONNXExportable else {
                    throw ExportError.unsupportedModel(kind: artifacts.configuration.model.kind, format: "ONNX")
                }
                let onnx = try ONNXClassifierExporter(producerVersion: Provenance.actionlabVersion).model(
                    of: exportable, window: artifacts.window, graphName: artifacts.configuration.name, metadata: metadata,
                    documentation: "Action classifier \(artifacts.configuration.name), trial \(artifacts.folder.id)")
                try AtomicFile.write(onnx.serializedData(), to: url)
            case .safetensors:
                let file = SafetensorsFile(
                    tensors: artifacts.checkpoint.model, metadata: Dictionary(metadata, uniquingKeysWith: { first, _ in first }))
                try AtomicFile.write(try file.serialized(), to: url)
            case .h5:
                try AtomicFile.write(Self.contents(of: artifacts.folder.file("weights.h5")), to: url)
            case .coreml:
                guard let exportable = model as? any CoreMLExportable else {
                    throw ExportError.unsupportedModel(kind: artifacts.configuration.model.kind, format: "Core ML")
                }
                let coreML = try CoreMLClassifierExporter(version: Provenance.actionlabVersion).model(
                    of: exportable, window: artifacts.window, labels: artifacts.labels, metadata: metadata,
                    description: "Action classifier \(artifacts.configuration.name), trial \(artifacts.folder.id)")
                try AtomicFile.write(coreML.serializedData(), to: url)
            }
            written.append((url, try ContentHash.sha256(ofFileAt: url).description))
        }
        // The resolved configuration beside the weights, so the export folder alone rebuilds the
        // model (`actionlab predict EXPORT_DIR`, ``TrainedModel``).
        let configurationURL = output.appendingPathComponent(Self.configurationName)
        try AtomicFile.write(Self.contents(of: artifacts.folder.file(Self.configurationName)), to: configurationURL)
        written.append((configurationURL, try ContentHash.sha256(ofFileAt: configurationURL).description))
        let card = ModelCard(
            artifacts: artifacts, selection: selection, files: written.map { ($0.url.lastPathComponent, $0.sha256) })
        let cardURL = output.appendingPathComponent(Self.modelCardName)
        try AtomicFile.write(card.markdown, to: cardURL)
        return Result(selection: selection, files: written.map(\.url) + [cardURL])
    }

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
            throw ExportError.unreadableFile(path: url.path, reason: error.localizedDescription)
        }
    }
}
