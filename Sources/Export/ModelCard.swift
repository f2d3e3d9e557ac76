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
        [header, interface, selectionSection, metricsSection, dataSection, intendedUse, configurationSection, provenanceSection]
            .joined(separator: "\n")
    }

    private var configuration: ExperimentConfiguration { artifacts.configuration }
    private var layout: SkeletonLayoutSummary { SkeletonLayoutSummary(configuration) }

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

    private var interface: String {
        let window = artifacts.window
        let windows = configuration.windows
        let timing = windows.sampling == .uniform
            ? "one window of \(window.windowSize) frames: a whole recording resampled to \(window.windowSize) frames "
                + "(uniform sampling; resample each action the same way before prediction)"
            : "one window of \(window.windowSize) frames at \(NumberFormat.exact(windows.frameRate)) frames per second (action duration "
                + "\(NumberFormat.fixed(windows.actionDuration, digits: 3)) s)"
        return """
            ## Input and output

            - Input `poses`: float32 `\(window)` — \(timing), \(layout.channels), \(layout.joints) \
            (layout `\(layout.name)`). Create ML's action classifier input has the same layout, `[window, 3, 18]` for `vision18`.
            - Output `labelProbabilities`: float32 `[\(artifacts.labels.count)]`, softmax probabilities of \
            \(artifacts.labels.map { "`\($0)`" }.joined(separator: ", ")), in that order.
            - \(layout.preprocessing)
            - `model.onnx` uses ONNX IR version 8 and operator set 17; its metadata repeats the labels, frame rate, \
            window size, layout, joints and channels. `weights.safetensors` and `weights.h5` hold the same tensors under \
            the same names as the ONNX initializers.

            """
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

    private var dataSection: String {
        var table = Table(header: ["role", "file", "sha256", "recordings"], numericColumns: [3])
        for record in artifacts.provenance.data {
            table.append([record.role, "`\(record.path)`", "`\(record.sha256)`", "\(record.sequences)"])
        }
        let validation = configuration.dataset.validation.strategy.rawValue
        return "## Data\n\n" + table.markdown
            + "\nValidation split: `\(validation)`. The training recordings above include those set aside for validation "
            + "when the split is carved from them.\n"
    }

    private var intendedUse: String {
        // Recordings actually scored per split (validation carved from the training files is not trained on),
        // falling back to the sources' counts.
        func recordings(_ split: String) -> Int {
            artifacts.metrics.splits[split]?.sequence?.count
                ?? artifacts.provenance.data.filter { $0.role == split }.reduce(0) { $0 + $1.sequences }
        }
        let (training, test) = (recordings("train"), recordings("test"))
        var text = """
            ## Intended use and limitations

            - Intended for research on recognising the actions \(artifacts.labels.map { "`\($0)`" }.joined(separator: ", ")) \
            from \(layout.name) keypoint windows made the way the training data was made; not for decisions about people.
            - Trained on \(training) recording\(training == 1 ? "" : "s") of these \(artifacts.labels.count) classes\
            \(test > 0 ? " and tested on \(test)" : ", with no test set"); scores on so few recordings are uncertain by \
            several percentage points.
            - Every window is assigned one of these classes: there is no "other" class, so unrelated motion is still labelled.
            - Inputs at another frame rate or window size, another layout or joint order, or another coordinate \
            convention must be converted first; the model has not seen them.

            """
        if let evidence = syntheticDataEvidence {
            text += "- **Synthetic data**: \(evidence). Accuracy on real recordings is unknown.\n"
        }
        return text
    }

    /// Where the experiment states that its data is synthetic, if it does: its name, its description
    /// or a source path containing the word "synthetic".
    var syntheticDataEvidence: String? {
        let paths = configuration.dataset.sources.map(\.path.path) + (configuration.dataset.test?.sources.map(\.path.path) ?? [])
        let statements = [("the experiment's name", configuration.name), ("its description", configuration.description)]
            + paths.map { ("source \($0)", $0) }
        let flagged = statements.filter { $0.1.range(of: "synthetic", options: .caseInsensitive) != nil }.map(\.0)
        return flagged.isEmpty ? nil : "marked synthetic by " + flagged.joined(separator: ", ")
    }

    private var configurationSection: String {
        "## Configuration (resolved)\n\n```json\n" + configuration.resolvedJSON() + "\n```\n"
    }

    private var provenanceSection: String {
        let p = artifacts.provenance
        var table = Table(header: ["", ""])
        for (key, value) in [
            ("ActionLab", p.actionlabVersion), ("git commit", p.gitCommit), ("Swift", p.swiftVersion), ("HDF5", p.hdf5Version),
            ("OpenBLAS", "\(p.openblas.configuration), core \(p.openblas.coreName), \(p.openblas.threads) thread(s) per call"
                + (p.computeThreads.map { "; \($0) compute thread(s)" } ?? "")),
            ("host", p.host.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")),
            ("seed", "\(p.seed)"),
        ] {
            table.append([key, value])
        }
        return "## Provenance\n\n" + table.markdown
    }
}

/// The layout facts the card states, phrased once.
private struct SkeletonLayoutSummary {
    var name: String
    var joints: String
    var channels: String
    var preprocessing: String

    init(_ configuration: ExperimentConfiguration) {
        let layout = configuration.features.layout
        name = layout.name
        joints = "\(layout.jointCount) joint\(layout.jointCount == 1 ? "" : "s") (\(layout.joints.joined(separator: ", ")))"
        channels = "\(layout.channelCount) channel\(layout.channelCount == 1 ? "" : "s") (\(layout.channels.joined(separator: ", ")))"
        preprocessing = layout.isImagePose
            ? "Keypoints follow Vision: x and y normalized to the displayed frame, origin at the lower left; an undetected "
                + "joint is (0, 0, 0)."
            : layout.isSkeleton3D
                ? "Keypoints are 3-D joint positions in metres in the camera's frame (y up), as the depth camera reports them; "
                    + "an undetected joint and a padded frame are (0, 0, 0)."
                : "Channel values are the source recordings' values, without normalization."
    }
}
