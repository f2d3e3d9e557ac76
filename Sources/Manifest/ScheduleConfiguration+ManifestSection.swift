import ManifestSchema

extension ScheduleConfiguration: ManifestSection {
    package static var defaults: ScheduleConfiguration { ScheduleConfiguration() }

    package static var settings: [Setting<ScheduleConfiguration>] {
        [
            Setting("kind", \.kind, .choice(Kind.self),
                    "learning rate per epoch: `constant`, `step` (× `gamma` every `stepEpochs`, PyTorch's `StepLR`) or `cosine` "
                        + "(PyTorch's `CosineAnnealingLR` down to `minimumLearningRate` at the last epoch)"),
            Setting("stepEpochs", \.stepEpochs, .integer(.atLeast(1)), "`step` only: epochs between decays").encoded(when: isStated(\.stepEpochs)),
            Setting("gamma", \.gamma, .number(NumericBounds(lower: .init(value: 0, isInclusive: false), upper: .init(value: 1, isInclusive: true))),
                    "`step` only: the decay factor").encoded(when: isStated(\.gamma)),
            Setting("minimumLearningRate", \.minimumLearningRate, .number(.nonNegative),
                    "`cosine` only: the rate at the last epoch; below `training.learningRate`").encoded(when: isStated(\.minimumLearningRate)),
            Setting("warmupEpochs", \.warmupEpochs, .integer(.nonNegative),
                    "linear warm-up `η·(e+1)/W` for the first `W` epochs, then the schedule over the remaining epochs "
                        + "(PyTorch's `LinearLR` + `SequentialLR`); less than `training.epochs`"),
        ]
    }

    /// The settings that apply to one kind only, with that kind; a manifest states them only
    /// with it, and so does the manifest form.
    private static var kindSettings: [(keyPath: PartialKeyPath<ScheduleConfiguration>, kind: Kind)] {
        [(\.stepEpochs, .step), (\.gamma, .step), (\.minimumLearningRate, .cosine)]
    }

    /// Whether a schedule states the setting of `keyPath`: always, unless it belongs to another kind.
    private static func isStated(_ keyPath: PartialKeyPath<ScheduleConfiguration>) -> (ScheduleConfiguration) -> Bool {
        { schedule in kindSettings.first { $0.keyPath == keyPath }.map { $0.kind == schedule.kind } ?? true }
    }

    /// Reads `training.schedule` over `initial` (the training recipe's schedule); settings of
    /// another kind are contradictions.
    init(reading object: ManifestObjectReader, startingFrom initial: ScheduleConfiguration = .defaults) {
        let reading = Self.read(object, startingFrom: initial)
        self = reading.value
        guard reading.outcome(\.kind) != .invalid else { return }
        for (keyPath, owner) in Self.kindSettings where owner != kind {
            reading.node(keyPath)?.report(
                "contradictory values: \(reading.path(keyPath)) applies only to \(reading.key(\.kind)) '\(owner.rawValue)', but "
                    + "\(reading.path(\.kind)) is '\(kind.rawValue)'")
        }
    }
}

extension ScheduleConfiguration: Codable {
    /// Manifest form: the kind, the warm-up, and only the kind's own settings.
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
