import Manifest

extension LoadedDataset {
    /// Checks that a trial of `configuration` can train and be evaluated on this data set: the
    /// checks `actionlab run` makes before it creates a sweep folder, and `actionlab validate --data`
    /// makes too, so that a data set that passes validation does not fail in a trial.
    ///
    /// Errors (nothing can train):
    /// - fewer than two classes;
    /// - a validation or test sequence whose label no training sequence has (the classifier has
    ///   no output for it): the message names the labels and suggests `dataset.labels: { Name: null }`;
    /// - a sequence whose channel or joint count differs from the first training sequence's;
    /// - no training sequence long enough for a window;
    /// - `training.earlyStopping` or `training.weights: "bestValidation"` without a validation window.
    ///
    /// Warnings (training runs, but not as one would think), one sentence each starting `warning: `:
    /// - sequences shorter than a window, dropped under `windows.padding: "drop"`;
    /// - labels without a validation sequence, typically because each has one recording and the
    ///   automatic split holds out whole recordings (no validation set at all when every label has one);
    /// - a label every training sequence of which is all zeros (no joint detected in any frame:
    ///   the class would be learnt from padding). Only sequences held in memory are looked at;
    ///   streamed ones (larger data sets) are not read for this.
    ///
    /// - Parameters:
    ///   - configuration: The trial's configuration (a grid cell): its `windows`, `features`,
    ///     `dataset.validation` and `training` sections are used.
    ///   - context: Appended to window messages to name the grid cell, such as
    ///     ` in sweep cell 1 (windows.duration 5)`; empty for a plan without a sweep.
    /// - Returns: The warnings, in the order above.
    /// - Throws: `DatasetError.tooFewClasses`, `.labelsNotInTraining`, `.inconsistentShape` or
    ///   `.emptySplit` (train or validation).
    public func checkTrainable(under configuration: ExperimentConfiguration, context: String = "") throws -> [String] {
        guard labels.count >= 2 else { throw DatasetError.tooFewClasses(labels) }
        let known = Set(labels)
        for split in ["validation", "test"] {
            let foreign = sequences(of: split).filter { !known.contains($0.label) }
            guard let first = foreign.first else { continue }
            throw DatasetError.labelsNotInTraining(
                Set(foreign.map(\.label)).sorted(), split: split, sequence: first.id, classes: labels)
        }
        if let reference = train.first {
            for split in Self.splitNames {
                for sequence in sequences(of: split)
                where sequence.channelCount != reference.channelCount || sequence.jointCount != reference.jointCount {
                    throw DatasetError.inconsistentShape(
                        sequence: sequence.id, expected: "[T, \(reference.channelCount), \(reference.jointCount)]",
                        found: "[T, \(sequence.channelCount), \(sequence.jointCount)]")
                }
            }
        }

        var warnings: [String] = []
        let windows = configuration.windows
        let builder = WindowBuilder(windows, layout: configuration.features.layout)
        func windowed(_ sequences: [DatasetSequence]) -> [DatasetSequence] {
            sequences.filter { !builder.windowStarts(frameCount: $0.frameCount(at: builder.frameRate)).isEmpty }
        }
        for split in Self.splitNames {
            let sequences = sequences(of: split)
            let kept = windowed(sequences)
            if split == "train" && kept.isEmpty {
                throw DatasetError.emptySplit(
                    "train", reason: "no training sequence gives a window of \(windows.size) frames "
                        + "(padding '\(windows.padding.rawValue)')\(context)")
            }
            if kept.count < sequences.count {
                warnings.append("warning: \(sequences.count - kept.count) of \(sequences.count) \(split) sequences are shorter than a window of "
                    + "\(windows.size) frames and are dropped\(context) (windows.padding 'drop')")
            }
        }

        let needsValidation = configuration.training.earlyStopping != nil ? "training.earlyStopping monitors it"
            : configuration.training.keptWeights == .bestValidation ? "training.weights 'bestValidation' picks the epoch by it" : nil
        if let needsValidation, windowed(validation).isEmpty {
            let shortfall = validationShortfall(configuration.dataset.validation, missing: labels)
            throw DatasetError.emptySplit("validation", reason: "\(needsValidation)\(context); \(shortfall)")
        }
        if configuration.dataset.validation.strategy != .none {
            let validated = Set(validation.map(\.label))
            let missing = labels.filter { !validated.contains($0) }
            if missing.count == labels.count {
                warnings.append("warning: no validation set: \(validationShortfall(configuration.dataset.validation, missing: missing)); "
                    + "training runs without validation loss or accuracy")
            } else if !missing.isEmpty {
                warnings.append("warning: the validation set has no sequence of \(Self.quoted(missing)): "
                    + validationShortfall(configuration.dataset.validation, missing: missing))
            }
        }

        let silent = labels.filter { label in
            let members = train.filter { $0.label == label }
            return !members.isEmpty && members.allSatisfy { sequence in
                guard case .loaded(let frames) = sequence.frames else { return false }
                return frames.keypoints.allSatisfy { $0 == 0 }
            }
        }
        for label in silent {
            let count = train.filter { $0.label == label }.count
            warnings.append("warning: every training sequence of '\(label)' (\(count)) is all zeros (no joint detected, or no sensor reading, "
                + "in any frame), "
                + "so the classifier learns '\(label)' from zeros; look at its recordings (actionlab check) or drop the label "
                + "with dataset.labels: { \(label): null }")
        }
        return warnings
    }

    /// Why labels `missing` have no validation sequence, with what to do about it.
    private func validationShortfall(_ settings: ValidationConfiguration, missing: [String]) -> String {
        switch settings.strategy {
        case .automatic:
            if let field = settings.groupBy {
                return "the split by dataset.validation.groupBy '\(field)' held out no \(field) with \(Self.quoted(missing))"
            }
            let single = missing.filter { label in Set(train.filter { $0.label == label }.map(\.group)).count <= 1 }
            let which = single.count == labels.count
                ? "every label (\(Self.quoted(single))) has" : "\(Self.quoted(single)) \(single.count == 1 ? "has" : "have")"
            return single.isEmpty
                ? "the automatic split (dataset.validation.fraction) held out none of \(Self.quoted(missing))'s recordings"
                : "\(which) a single recording, and the automatic split holds out whole recordings and keeps one per label for "
                    + "training; add recordings, or give dataset.validation its own sources (strategy 'files')"
        case .files: return "dataset.validation.sources hold none of \(Self.quoted(missing))"
        case .none: return "dataset.validation.strategy is 'none'"
        }
    }

    private static func quoted(_ labels: [String]) -> String { labels.map { "'\($0)'" }.joined(separator: ", ") }
}
