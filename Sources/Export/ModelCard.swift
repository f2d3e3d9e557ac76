import Foundation
import Manifest
import ModelExport
import NeuralNetwork
import Reports

/// `model-card.md`: what an exported model is, how it was chosen, how well it does, what it
/// was trained on, and what it is (not) for — after Mitchell et al., "Model Cards for Model
/// Reporting" (FAT* 2019), reduced to what a trial's files state.
public struct ModelCard {
    /// The exported trial.
    public var artifacts: TrialArtifacts
    /// How the trial was chosen.
    public var selection: TrialSelection
    /// The exported files with their SHA-256, lowercase hex, in the order written.
    public var files: [(name: String, sha256: String)]

    public init(artifacts: TrialArtifacts, selection: TrialSelection, files: [(name: String, sha256: String)]) {
        self.artifacts = artifacts
        self.selection = selection
        self.files = files
    }

    /// The card as Markdown.
    public var markdown: String {
        let sections = ModelCardSections(artifacts: artifacts)
        return [header, sections.interface(weightsNote: Self.weightsNote), selectionSection, metricsSection, sections.data,
                sections.intendedUse, sections.configurationText, sections.provenance].joined(separator: "\n")
    }

    private var configuration: ExperimentConfiguration { artifacts.configuration }

    /// What the card says of the weight files beside `model.onnx`.
    static let weightsNote = "`weights.safetensors` and `weights.h5` hold the same tensors under the same names as the ONNX initializers."

    private var header: String {
        let model = configuration.model
        var text = "# Model card: \(configuration.name), trial \(artifacts.folder.id)\n\n"
        if !configuration.description.isEmpty { text += "\(configuration.description)\n\n" }
        text += "An action classifier of kind `\(model.kind)` (\(model.settingsDescription)) trained by ActionLab \(artifacts.provenance.actionlabVersion) with seed \(artifacts.seed), "
        text += "exported from `\(artifacts.folder.url.path)`.\n\n"
        var files = Table(header: ["file", "sha256"])
        for (name, sha256) in self.files { files.append(["`\(name)`", "`\(sha256)`"]) }
        return text + files.markdown
    }


    private var selectionSection: String {
        var table = Table(
            header: ["trial", "validation accuracy", "validation loss", "test accuracy", ""], numericColumns: [1, 2, 3])
        for candidate in selection.candidates {
            table.append([
                candidate.folder.id, candidate.validationAccuracy.map { NumberFormat.fixed($0) } ?? "–",
                candidate.validationLoss.map { NumberFormat.fixed($0) } ?? "–",
                candidate.testAccuracy.map { NumberFormat.fixed($0) } ?? "–",
                candidate.folder == selection.chosen.folder ? "**exported**" : "",
            ])
        }
        var text = "## Selection\n\nRule: \(selection.rule). Test scores are shown for information and are never used to choose.\n\n"
        text += table.markdown
        if !selection.incomplete.isEmpty {
            text += "\nLeft out as unfinished: "
                + selection.incomplete.map { "\($0.id) (no \($0.missing.joined(separator: ", ")))" }.joined(separator: "; ") + ".\n"
        }
        return text
    }

    private var metricsSection: String {
        var table = Table(
            header: ["split", "windows", "accuracy", "macro-F1", "loss", "recordings", "recording accuracy", "recording macro-F1"],
            numericColumns: [1, 2, 3, 4, 5, 6, 7])
        for split in RunReport.splitOrder {
            guard let scores = artifacts.metrics.splits[split] else { continue }
            table.append([
                split, "\(scores.window.count)", NumberFormat.fixed(scores.window.accuracy), NumberFormat.fixed(scores.window.macroF1),
                scores.window.loss.map { NumberFormat.fixed($0) } ?? "–",
                scores.sequence.map { "\($0.count)" } ?? "–", scores.sequence.map { NumberFormat.fixed($0.accuracy) } ?? "–",
                scores.sequence.map { NumberFormat.fixed($0.macroF1) } ?? "–",
            ])
        }
        var text = "## Metrics\n\nWindow-level scores come from the model directly; recording-level scores aggregate a "
        text += "recording's windows (`\(configuration.evaluation.aggregation.rawValue)`).\n\n" + table.markdown
        for split in ["test", "validation"] {
            guard let scores = artifacts.metrics.splits[split]?.window else { continue }
            var perClass = Table(header: ["class", "precision", "recall", "F1", "support"], numericColumns: [1, 2, 3, 4])
            for label in artifacts.labels {
                guard let s = scores.perClass[label] else { continue }
                perClass.append([label, NumberFormat.fixed(s.precision), NumberFormat.fixed(s.recall), NumberFormat.fixed(s.f1), "\(s.support)"])
            }
            text += "\nPer class, \(split) windows:\n\n" + perClass.markdown
        }
        return text
    }
}
