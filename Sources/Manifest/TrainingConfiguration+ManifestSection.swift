import ManifestSchema

extension TrainingConfiguration: ManifestSection {
    package static var defaults: TrainingConfiguration { TrainingConfiguration() }

    package static var settings: [Setting<TrainingConfiguration>] {
        [
            Setting("recipe", \.recipe, .choice(TrainingRecipe.self),
                    "the values the other keys start from: `actionlab` (these defaults) or `pyskl` (PYSKL's: `sgd`, "
                        + "`learningRate` 0.1, `momentum` 0.9, `nesterov`, `weightDecay` 0.0005, `schedule` cosine to 0); "
                        + "every key stated beside it overrides it")
                .readBySection().encoded { $0.recipe != .actionlab },
            Setting("epochs", \.epochs, .integer(.closed(1, 100_000)), "passes over the training windows"),
            Setting("batchSize", \.batchSize, .integer(.atLeast(1)), "windows per mini-batch"),
            Setting("optimizer", \.optimizer, .choice(Optimizer.self), "PyTorch semantics"),
            Setting("learningRate", \.learningRate, .number(.positive), "the step size (the base rate of `schedule`)"),
            Setting("weightDecay", \.weightDecay, .number(.nonNegative), "L2 for `adam`/`sgd`, decoupled for `adamw`"),
            Setting("momentum", \.momentum, .number(.unitInterval), "`sgd` only").encoded { $0.optimizer == .sgd },
            Setting("nesterov", \.nesterov, .boolean, "`sgd` only: Nesterov momentum (PyTorch's `nesterov=True`); needs `momentum` > 0")
                .encoded { $0.optimizer == .sgd && $0.nesterov },
            Setting("labelSmoothing", \.labelSmoothing, .number(.unitInterval), "label smoothing of the cross-entropy loss"),
            Setting("seeds", \.seeds, .list(.integer(.nonNegative), minimumCount: 1, distinct: "seed"),
                    "one run per seed; same manifest and seed give bit-identical results"),
            Setting("threads", \.threads, .integer(.closed(1, Double(TrainingConfiguration.maximumThreads))),
                    "threads each run splits its layers' work between (OpenBLAS itself runs single-threaded)"),
            .section("schedule", \.schedule, "how the learning rate changes, set once per epoch"),
            Setting("gradientClipNorm", \.gradientClipNorm, .optional(.number(.positive)),
                    "clip the global L2 norm of all gradients before each step (PyTorch's `clip_grad_norm_`, ε 1e-6)"),
            Setting("classWeights", \.classWeights, .optional(ClassWeighting.settingKind),
                    "`\"balanced\"` (scikit-learn: `n_windows / (n_classes · count)` over the training windows) or "
                        + "`{ label: weight }` (unnamed labels 1), passed to the cross-entropy"),
            .optionalSection("earlyStopping", \.earlyStopping,
                             "stop after `patience` epochs without an improvement larger than `minimumDelta`; needs a validation set",
                             reading: EarlyStoppingConfiguration.init(readingSettingsOf:)),
            Setting("restoreBestWeights", \.restoreBestWeights, .boolean,
                    "keep the weights of the best epoch by `earlyStopping.metric` instead of the last; needs `earlyStopping`; "
                        + "`curves.md`, `complete.json` (`saved_epoch`) and `weights.h5` (`saved_epoch`) name the epoch")
                .encoded { $0.earlyStopping != nil },
            Setting("weights", \.weights, .choice(Weights.self),
                    "which epoch's weights are scored (every split), saved (`weights.h5`) and exported: `last`, or "
                        + "`bestValidation`, the best validation epoch (by `earlyStopping.metric` with early stopping, else by "
                        + "validation accuracy, earliest on ties; needs a validation set); `summary.md`, `curves.md` and "
                        + "`complete.json` (`saved_epoch`) name the epoch")
                .encoded { $0.weights != .last },
            Setting("checkpointEvery", \.checkpointEvery, .integer(.atLeast(1)),
                    "epochs between training checkpoints, from which a killed trial resumes bit-identically"),
        ]
    }

    /// Reads `training`, starting from its `recipe`, then checks the keys that constrain each
    /// other: the best weights need early stopping, the warm-up and the cosine floor stay below the
    /// run's epochs and rate, momentum and Nesterov momentum belong to SGD, and Nesterov momentum
    /// needs a momentum.
    init(reading object: ManifestObjectReader) {
        let recipeKey = Self.key(\.recipe)
        let recipe = object.member(recipeKey).map { $0.choice(TrainingRecipe.self) ?? .actionlab } ?? .actionlab
        let reading = Self.read(object, startingFrom: recipe.configuration)
        self = reading.value
        schedule = reading.section(\.schedule) { ScheduleConfiguration(reading: $0, startingFrom: recipe.configuration.schedule) }
            ?? schedule
        if reading.outcome(\.restoreBestWeights) == .valid, restoreBestWeights, reading.node(\.earlyStopping) == nil {
            reading.node(\.restoreBestWeights)?.report(
                "contradictory values: \(reading.path(\.restoreBestWeights)) needs \(reading.path(\.earlyStopping)), "
                    + "whose metric picks the best epoch")
        }
        if reading.outcome(\.restoreBestWeights) == .valid, restoreBestWeights, reading.node(\.weights) != nil,
           reading.outcome(\.weights) == .valid, weights == .last {
            reading.node(\.weights)?.report(
                "contradictory values: \(reading.path(\.weights)) is '\(Weights.last.rawValue)' but "
                    + "\(reading.path(\.restoreBestWeights)) keeps the best epoch's weights")
        }
        if let scheduleNode = reading.node(\.schedule) {
            let schedulePath = reading.path(\.schedule)
            if schedule.warmupEpochs >= epochs {
                scheduleNode.report(
                    "contradictory values: \(schedulePath.appending(key: ScheduleConfiguration.key(\.warmupEpochs))) "
                        + "(\(schedule.warmupEpochs)) must be less than \(reading.path(\.epochs)) (\(epochs))")
            }
            if schedule.kind == .cosine, schedule.minimumLearningRate >= learningRate {
                scheduleNode.report(
                    "contradictory values: \(schedulePath.appending(key: ScheduleConfiguration.key(\.minimumLearningRate))) "
                        + "(\(schedule.minimumLearningRate.manifestText)) must be less than \(reading.path(\.learningRate)) "
                        + "(\(learningRate.manifestText))")
            }
        }
        for keyPath in [\TrainingConfiguration.momentum, \TrainingConfiguration.nesterov] as [PartialKeyPath<Self>] {
            guard let node = reading.node(keyPath), reading.outcome(\.optimizer) != .invalid, optimizer != .sgd else { continue }
            node.report(
                "contradictory values: \(reading.key(keyPath)) applies only to \(reading.key(\.optimizer)) "
                    + "'\(Optimizer.sgd.rawValue)', but \(reading.path(\.optimizer)) is '\(optimizer.rawValue)'")
        }
        if optimizer == .sgd, nesterov, momentum == 0, reading.outcome(\.momentum) != .invalid,
           reading.outcome(\.nesterov) != .invalid {
            let source = reading.node(\.nesterov) == nil ? " (from \(reading.key(\.recipe)) '\(recipe.rawValue)')" : ""
            (reading.node(\.momentum) ?? reading.node(\.nesterov) ?? object.node).report(
                "contradictory values: \(reading.path(\.nesterov))\(source) needs \(reading.path(\.momentum)) > 0")
        }
    }
}

extension TrainingConfiguration: Codable {
    /// Manifest form: SGD's momentum only with SGD, the best-weights flag only with early stopping.
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
