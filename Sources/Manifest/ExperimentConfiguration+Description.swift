import Foundation
import JSON5
import ManifestSchema

extension ExperimentConfiguration {
    /// The configuration as canonical JSON for a run's `resolved.json`: every default filled
    /// in, every path an absolute `file://` URL, keys sorted, integers without `.0`.
    ///
    /// - Returns: Pretty-printed JSON ending in a newline.
    public func resolvedJSON() -> String {
        let encoder = JSONEncoder()
        // Manifests admit only finite numbers; the strategy makes encoding total regardless.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            let data = try encoder.encode(self)
            let value = try JSON5Value(parsing: String(decoding: data, as: UTF8.self))
            return value.jsonString(sortedKeys: true) + "\n"
        } catch {
            // Unreachable: every field is a string, a number, a Boolean, a URL or a container of
            // these, which JSONEncoder always encodes to JSON that the JSON5 parser accepts.
            preconditionFailure("ExperimentConfiguration did not encode to JSON: \(error)")
        }
    }

    /// A human-readable account of what a run of this experiment will do, for
    /// `actionlab validate`: data sources, validation, windows, model, training and the runs.
    ///
    /// - Returns: Several lines of text ending in a newline.
    public func planDescription() -> String {
        var lines = ["Experiment '\(name)'" + (description.isEmpty ? "" : ": \(description)")]
        lines.append("Dataset")
        lines.append("  training: " + Self.count(dataset.sources.count, "source"))
        lines += dataset.sources.map(Self.describe)
        lines.append("  validation: " + validationDescription)
        lines += dataset.validation.sources.map(Self.describe)
        if let test = dataset.test, !test.selection.isEmpty {
            lines.append("  test: the training files whose \(test.selectionDescription)")
        } else if let test = dataset.test {
            lines.append("  test: " + Self.count(test.sources.count, "source"))
            lines += test.sources.map(Self.describe)
        } else {
            lines.append("  test: none")
        }
        if !dataset.labels.isEmpty {
            let renames = dataset.labels.sorted { $0.key < $1.key }.map { raw, new in
                new.map { "'\(raw)' -> '\($0)'" } ?? "'\(raw)' dropped"
            }
            lines.append("  labels: " + renames.joined(separator: ", "))
        }
        let layout = features.layout
        lines.append(
            "Features: layout '\(layout.name)' (\(Self.count(layout.jointCount, "joint")) x \(Self.count(layout.channelCount, "channel"))), "
                + "\(features.frameRate.manifestText) fps, cache \(features.cache.path)")
        let overlap = windows.stride == windows.size ? "non-overlapping" : "stride \(Self.count(windows.stride, "frame"))"
        let shortSequences = windows.padding == .zero ? "shorter sequences zero-padded" : "shorter sequences dropped"
        if windows.sampling == .uniform {
            lines.append("Windows: one per recording, the whole recording resampled to \(Self.count(windowSize, "frame")) (uniform sampling)")
        } else {
            lines.append(
                "Windows: \(Self.count(windowSize, "frame")) = \(actionDuration.manifestText) s at \(windows.frameRate.manifestText) fps, "
                    + "\(overlap), \(shortSequences)")
        }
        let steps = augmentation.steps.map(\.kind).joined(separator: ", ")
        lines.append("Augmentation: '\(augmentation.pipeline)'" + (steps.isEmpty ? " (none)" : " (\(steps))"))
        lines.append(model.planDescription(layout: layout))
        if model.normalizeInput {
            lines.append(features.layout.isSkeleton3D
                ? "Input normalization: each window centred on the hip centre of its first frame, scaled by the mean spine length"
                : "Input normalization: x, y centred on the neck (else the mean detected joint), scaled by the mean joint distance")
        }
        lines.append("Training: " + trainingDescription)
        lines.append("Evaluation: sequence prediction by \(evaluation.aggregation == .mean ? "mean window probability" : "majority vote of windows")")
        lines.append("Output: \(output.directory.appendingPathComponent(name).path)/<timestamp>")
        let seeds = training.seeds.map(String.init).joined(separator: ", ")
        lines.append("Seeds: \(seeds) (one run per seed\(training.seeds.count == 1 ? "" : ", \(training.seeds.count) runs") of this configuration)")
        return lines.joined(separator: "\n") + "\n"
    }

    private var validationDescription: String {
        let validation = dataset.validation
        switch validation.strategy {
        case .automatic:
            let groups = validation.groupBy.map { "the \($0) values, whole" } ?? "the groups, stratified by label"
            return "automatic, fraction \(validation.fraction.manifestText) of \(groups), split seed \(validation.seed)"
        case .files:
            return "from files, " + Self.count(validation.sources.count, "source")
        case .none:
            return "none"
        }
    }

    private var trainingDescription: String {
        var optimizer = "\(training.optimizer.rawValue) (learning rate \(training.learningRate.manifestText), "
            + "weight decay \(training.weightDecay.manifestText)"
        if training.optimizer == .sgd {
            optimizer += ", momentum \(training.momentum.manifestText)" + (training.nesterov ? ", Nesterov" : "")
        }
        optimizer += ")"
        let recipe = training.recipe == .actionlab ? "" : "recipe \(training.recipe.rawValue): "
        var text = recipe + "\(Self.count(training.epochs, "epoch")), batch size \(training.batchSize), \(optimizer), "
            + "label smoothing \(training.labelSmoothing.manifestText), \(Self.count(training.threads, "compute thread")) per run"
        let schedule = training.schedule
        switch schedule.kind {
        case .constant: break
        case .step: text += ", step schedule (× \(schedule.gamma.manifestText) every \(Self.count(schedule.stepEpochs, "epoch")))"
        case .cosine: text += ", cosine schedule down to \(schedule.minimumLearningRate.manifestText)"
        }
        if schedule.warmupEpochs > 0 { text += ", \(Self.count(schedule.warmupEpochs, "warm-up epoch"))" }
        if let norm = training.gradientClipNorm { text += ", gradients clipped to norm \(norm.manifestText)" }
        switch training.classWeights {
        case nil: break
        case .balanced: text += ", balanced class weights"
        case .explicit: text += ", class weights given"
        }
        if let stopping = training.earlyStopping {
            text += ", early stopping on \(stopping.metric.rawValue) (patience \(stopping.patience), "
                + "minimum delta \(stopping.minimumDelta.manifestText))"
                + (training.restoreBestWeights ? ", best epoch's weights kept" : "")
        }
        if training.weights == .bestValidation, !training.restoreBestWeights {
            text += ", best validation epoch's weights kept"
        }
        return text + ", checkpoint every \(Self.count(training.checkpointEvery, "epoch"))"
    }

    private static func describe(_ source: DataSource) -> String {
        var text = "    - \(source.format.rawValue) \(source.path.path) at \(source.frameRate.manifestText) fps"
        if let label = source.label { text += ", label '\(label)'" }
        if let pattern = source.pattern { text += ", fields \(pattern.fieldNames.joined(separator: ", ")) from the file names" }
        return text
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
