import NeuralNetwork
import Pose
import Randomness

/// The network that classifies a window of keypoints (the manifest's `model` section): a
/// registered family, that family's own settings, and the settings every family shares.
///
/// ```json5
/// model: { kind: "stgcn-small", dropout: 0.1, edgeImportance: false }
/// ```
public struct ModelConfiguration: Sendable, Hashable {
    /// The family (`model.kind`).
    public internal(set) var family: RegisteredModelFamily
    /// The family's own settings; their type is the family's ``ModelFamily/Settings``.
    package internal(set) var settings: any ModelSettings
    /// The dropout probability, in [0, 1); each family says where it applies.
    public var dropout: Double
    /// Whether the model centres and scales its input itself, so that an exported model takes
    /// raw keypoints: each frame's x and y for image pose (`KeypointNormalization`: neck or mean
    /// of the detected joints, mean joint distance), each window on its hip and spine for a 3-D
    /// skeleton (`SkeletonNormalization`); see `SkeletonLayout.inputNormalization`.
    public var normalizeInput: Bool
    /// The stream the model computes from its keypoints and classifies (`model.stream`).
    public var stream: KeypointStream = .joint

    /// The family's `model.kind` name.
    public var kind: String { family.name }

    /// The manifest key that names the family.
    static let kindKey = "kind"

    /// A configuration of `family` with `settings` (default: the family's defaults).
    ///
    /// - Parameters:
    ///   - family: The model family.
    ///   - settings: The family's settings.
    ///   - dropout: The dropout probability, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    package init<Family: ModelFamily>(
        _ family: Family, _ settings: Family.Settings = .defaults, dropout: Double = 0, normalizeInput: Bool = false
    ) {
        self.init(registered: RegisteredModelFamily(family), settings: settings, dropout: dropout, normalizeInput: normalizeInput)
    }

    /// A configuration of a registered family with that family's default settings.
    ///
    /// - Parameters:
    ///   - family: A family of a ``ModelRegistry``.
    ///   - dropout: The dropout probability, in [0, 1).
    ///   - normalizeInput: Whether to normalize keypoints inside the model.
    public init(_ family: RegisteredModelFamily, dropout: Double = 0, normalizeInput: Bool = false) {
        self.init(registered: family, settings: family.defaultSettings(), dropout: dropout, normalizeInput: normalizeInput)
    }

    /// The default model: a three-layer TCN with channels 64, 64, 64 and kernel sizes 7, 5, 3.
    public init() {
        self.init(TemporalConvolutionalFamily())
    }

    init(
        registered family: RegisteredModelFamily, settings: any ModelSettings, dropout: Double, normalizeInput: Bool,
        stream: KeypointStream = .joint
    ) {
        self.family = family
        self.settings = settings
        self.dropout = dropout
        self.normalizeInput = normalizeInput
        self.stream = stream
    }

    /// The settings as the family's type, or nil for another family's type.
    package func settings<Settings: ModelSettings>(as type: Settings.Type) -> Settings? {
        settings as? Settings
    }

    /// Replaces the family's settings, keeping the family; nil (nothing changed) when they are
    /// of another family's type.
    @discardableResult
    package mutating func update<Settings: ModelSettings>(_ type: Settings.Type, _ change: (inout Settings) -> Void) -> Bool {
        guard var typed = settings as? Settings else { return false }
        change(&typed)
        settings = typed
        return true
    }

    /// A freshly initialized classifier taking the trainer's `[N, C·J, T]` batches.
    ///
    /// - Parameters:
    ///   - layout: The skeleton layout of the windows (`features.layout`).
    ///   - windowSize: Frames per window `T`.
    ///   - classCount: Number of classes.
    ///   - generator: The initialization stream; the model's weights depend only on it.
    /// - Throws: The network's `InvalidConfiguration` for settings the manifest validation let
    ///   through but the model rejects (fewer than two classes), or
    ///   ``ModelRegistryError/settingsMismatch(family:settings:)``.
    public func makeClassifier(
        layout: SkeletonLayout, windowSize: Int, classCount: Int, using generator: inout SeededGenerator
    ) throws -> any Classifier {
        try family.makeClassifier(settings, for: input(layout: layout, windowSize: windowSize, classCount: classCount), using: &generator)
    }

    /// The model's line in `actionlab validate`'s plan: `Model: STGCN over the skeleton graph of
    /// 17 edges, edge importance on, dropout 0.5`.
    /// The memory training this model on windows of `windowSize` frames of `layout` takes
    /// (``TrainingMemoryEstimate``), or nil if a count overflows a 64-bit integer.
    public func memoryEstimate(layout: SkeletonLayout, windowSize: Int, classCount: Int) -> TrainingMemoryEstimate? {
        family.memoryEstimate(settings, for: input(layout: layout, windowSize: windowSize, classCount: classCount))
    }

    public func planDescription(layout: SkeletonLayout) -> String {
        "Model: " + family.planDescription(settings, for: input(layout: layout, windowSize: 0, classCount: 0))
            + ", dropout \(dropout.manifestText)"
    }

    /// The kind and settings in a few words, for summaries and model cards:
    /// `stgcn-small (6 blocks of 32 to 128 channels, edge importance on, dropout 0)`.
    public var settingsDescription: String {
        let family = self.family.settingsDescription(settings)
        return (family.isEmpty ? "" : family + ", ") + "dropout \(dropout.manifestText)"
            + (normalizeInput ? ", keypoints normalized in the model" : "")
            + (stream == .joint ? "" : ", \(stream.rawValue) stream")
    }

    private func input(layout: SkeletonLayout, windowSize: Int, classCount: Int) -> ModelInput {
        ModelInput(
            layout: layout, windowSize: windowSize, classCount: classCount, dropout: dropout, normalizeInput: normalizeInput,
            stream: stream)
    }

    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.family == rhs.family && lhs.settings.isEqual(to: rhs.settings) && lhs.dropout == rhs.dropout
            && lhs.normalizeInput == rhs.normalizeInput && lhs.stream == rhs.stream
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        settings.hash(into: &hasher)
        hasher.combine(dropout)
        hasher.combine(normalizeInput)
        hasher.combine(stream)
    }
}
