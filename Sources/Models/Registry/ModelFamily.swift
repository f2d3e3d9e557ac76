import ManifestSchema
import NeuralNetwork
import Randomness

/// A model family: the settings a manifest's `model` section gives it, the classifier it builds
/// from them, and how validation, summaries and model cards describe it.
///
/// A family lives in one folder under `Sources/Models/Families/` with its ONNX translation (the
/// network's ``ModelExport/ONNXExportable`` conformance), and becomes usable by one line in
/// ``ModelRegistry/builtIn``. The settings every family shares (`kind`, `dropout`,
/// `normalizeInput`) are read by ``ModelConfiguration``; a family reads only its own keys, and a
/// key that only another family declares is reported as such, never silently ignored.
///
/// The shared model checks (output shape, finite-difference gradients, determinism,
/// state-dictionary round trip, ONNX against onnxruntime) run over every registered family in
/// `Tests/ModelsTests`, as scikit-learn's `parametrize_with_checks` runs over every estimator.
package protocol ModelFamily: Sendable {
    /// The family's own settings, with its defaults in `init()`.
    associatedtype Settings: ModelSettings

    /// The name a manifest's `model.kind` gives, such as `"stgcn-small"`; unique in a registry.
    var name: String { get }

    /// One line for the reference: what the family is, with its paper.
    var summary: String { get }

    /// Reads the family's keys from the `model` object, reporting each problem at its key.
    ///
    /// The default reads every declared setting; a family with checks across its keys reads
    /// them first with `Settings.read(_:startingFrom:)`, then checks.
    ///
    /// - Parameter object: The manifest's `model` object; keys not asked for are reported as unknown.
    /// - Returns: The settings, with the default for every absent or invalid key.
    func read(_ object: ManifestObjectReader) -> Settings

    /// A freshly initialized classifier taking the trainer's windows `[N, C·J, T]` and giving
    /// logits `[N, classCount]`.
    ///
    /// - Parameters:
    ///   - settings: The family's settings.
    ///   - input: The data the model is for and the shared settings.
    ///   - generator: The initialization stream; the weights depend only on it.
    /// - Throws: The network's `InvalidConfiguration` for settings it rejects.
    func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier

    /// The parameters and per-window activations of the classifier `makeClassifier` would build,
    /// counted with overflow checks and without building it.
    ///
    /// - Parameters:
    ///   - settings: The family's settings.
    ///   - input: The data the model is for.
    /// - Returns: The estimate, or nil if a count overflows a 64-bit integer.
    func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate?

    /// The model's line in `actionlab validate`'s plan, after `Model: ` and before the dropout:
    /// `TCN, channels [64, 64, 64], kernel sizes [7, 5, 3]`.
    func planDescription(_ settings: Settings, for input: ModelInput) -> String

    /// The family's settings in a few words for summaries and model cards, without the kind:
    /// `channels [64, 64, 64], kernel sizes [7, 5, 3]`.
    func settingsDescription(_ settings: Settings) -> String
}

extension ModelFamily {
    package func read(_ object: ManifestObjectReader) -> Settings {
        Settings.read(object).value
    }
}
