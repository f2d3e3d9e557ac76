import Foundation
import ManifestSchema
import Reports
import Sweeps

/// `model-card.md` of an exported stream ensemble: its members and weights, how the ensemble and
/// seed were chosen, the fused and single-stream scores (the chosen seed, and mean ± std over
/// every fused seed), then the data, intended use, configuration and provenance of its first
/// member, as ``ModelCard`` states them for one trial.
public struct EnsembleModelCard {
    /// How the ensemble was chosen.
    public var selection: EnsembleSelection
    /// The members' trials, in the order of `selection.members`.
    public var members: [TrialArtifacts]
    /// The exported files with their SHA-256, lowercase hex, in the order written.
    public var files: [(name: String, sha256: String)]

    /// Creates the card.
    public init(selection: EnsembleSelection, members: [TrialArtifacts], files: [(name: String, sha256: String)]) {
        self.selection = selection
        self.members = members
        self.files = files
    }

    /// What the card says of the weight files beside `model.onnx`.
    static let weightsNote = "Each member's initializers carry its stream as a prefix (`bone/blocks.0.…`); "
        + "`members/<stream>/weights.h5` holds the same tensors without it, and `members/<stream>/config.json` the member's "
        + "resolved configuration, so each stream can also be rebuilt alone."

    /// The card as Markdown.
    public var markdown: String {
        guard let first = members.first else { return header }
        let sections = ModelCardSections(artifacts: first)
        return [header, sections.interface(weightsNote: Self.weightsNote), selectionSection, metricsSection, sections.data,
                sections.intendedUse, sections.configurationText, sections.provenance].joined(separator: "\n")
    }

    private var header: String {
        let ensemble = selection.chosen
        let name = members.first?.configuration.name ?? ""
        var text = "# Model card: \(name), stream ensemble \(ensemble.streamsText), seed \(selection.seed.seed)\n\n"
        if let description = members.first?.configuration.description, !description.isEmpty { text += "\(description)\n\n" }
        let kind = members.first.map { "`\($0.configuration.model.kind)` (\($0.configuration.model.settingsDescription))" } ?? ""
        text += "A late-fusion ensemble of \(members.count) action classifiers of kind \(kind), one per input stream, "
            + "trained by ActionLab with seed \(selection.seed.seed). `model.onnx` computes every stream from the same raw keypoints "
            + "and outputs the weighted mean of their class probabilities (PYSKL's multi-stream ensemble; Duan et al., ACM MM 2022).\n\n"
        var table = Table(header: ["stream", "weight", "trial"], numericColumns: [1])
        for member in selection.members {
            table.append([member.stream.rawValue, member.weight.manifestText, "`\(member.folder.url.path)`"])
        }
        text += table.markdown + "\n"
        var files = Table(header: ["file", "sha256"])
        for (name, sha256) in self.files { files.append(["`\(name)`", "`\(sha256)`"]) }
        return text + files.markdown
    }

    private var selectionSection: String {
        var table = Table(header: ["ensemble", "seeds", "validation accuracy", "test accuracy", ""], numericColumns: [1, 2, 3])
        for (index, ensemble) in selection.ensembles.enumerated() {
            let values = ensemble.values.map { "\($0.path)=\($0.value)" }.joined(separator: ", ")
            func cell(_ split: String) -> String {
                let values = ensemble.seeds.compactMap { $0.splits[split]?.window.accuracy }
                return values.isEmpty ? "–" : NumberFormat.meanStd(values)
            }
            table.append([
                ensemble.streamsText + (values.isEmpty ? "" : " [\(values)]"), "\(ensemble.seeds.count)", cell("validation"), cell("test"),
                index == selection.chosenIndex ? "**exported**, seed \(selection.seed.seed)" : "",
            ])
        }
        var text = "## Selection\n\nRule: \(selection.rule). Test scores are shown for information and are never used to choose.\n\n"
            + table.markdown
        if !selection.skipped.isEmpty {
            text += "\nSeeds of the exported ensemble that could not be fused, and so were not candidates:\n\n"
                + selection.skipped.map { "- \($0)" }.joined(separator: "\n") + "\n"
        }
        return text
    }

    private var metricsSection: String {
        var table = Table(
            header: ["model", "weight", "split", "windows", "accuracy", "macro-F1", "recording accuracy"], numericColumns: [1, 3, 4, 5, 6])
        for split in ["validation", "test"] {
            if let scores = selection.seed.splits[split] {
                table.append([
                    "**ensemble**", "", split, "\(scores.window.count)", NumberFormat.fixed(scores.window.accuracy),
                    NumberFormat.fixed(scores.window.macroF1), NumberFormat.fixed(scores.sequence.accuracy),
                ])
            }
            for (member, artifacts) in zip(selection.members, members) {
                guard let scores = artifacts.metrics.splits[split] else { continue }
                table.append([
                    member.stream.rawValue, member.weight.manifestText, split, "\(scores.window.count)",
                    NumberFormat.fixed(scores.window.accuracy), NumberFormat.fixed(scores.window.macroF1),
                    scores.sequence.map { NumberFormat.fixed($0.accuracy) } ?? "–",
                ])
            }
        }
        return "## Metrics\n\nSeed \(selection.seed.seed): the ensemble's fused probabilities and each member alone, over windows "
            + "(and recordings, aggregated as in training). The selection table above gives mean ± std over every fused seed.\n\n"
            + table.markdown
    }
}
