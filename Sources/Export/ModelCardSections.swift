import Foundation
import Manifest
import Reports

/// The sections of a model card that depend only on one trial's files, shared by the card of an
/// exported trial (``ModelCard``) and that of an exported stream ensemble (``EnsembleModelCard``).
struct ModelCardSections {
    /// The trial the sections describe.
    var artifacts: TrialArtifacts

    private var configuration: ExperimentConfiguration { artifacts.configuration }
    private var layout: SkeletonLayoutSummary { SkeletonLayoutSummary(configuration) }

    /// `## Input and output`; `weightsNote` says what the weight files beside `model.onnx` hold.
    func interface(weightsNote: String) -> String {
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
            window size, layout, joints and channels. \(weightsNote)

            """
    }

    /// `## Data`: the sources with their checksums.
    var data: String {
        var table = Table(header: ["role", "file", "sha256", "recordings"], numericColumns: [3])
        for record in artifacts.provenance.data {
            table.append([record.role, "`\(record.path)`", "`\(record.sha256)`", "\(record.sequences)"])
        }
        let validation = configuration.dataset.validation.strategy
        return "## Data\n\n" + table.markdown
            + (validation == .none
                ? "\nValidation split: `none`: every training recording above was trained on.\n"
                : "\nValidation split: `\(validation.rawValue)`. The training recordings above include those set aside for validation "
                    + "when the split is carved from them.\n")
    }

    /// `## Intended use and limitations`.
    var intendedUse: String {
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

    /// `## Configuration (resolved)`.
    var configurationText: String {
        "## Configuration (resolved)\n\n```json\n" + configuration.resolvedJSON() + "\n```\n"
    }

    /// `## Provenance`: software, machine and seed.
    var provenance: String {
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
