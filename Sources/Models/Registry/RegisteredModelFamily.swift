import Foundation
import ManifestSchema
import NeuralNetwork
import Randomness

/// A ``ModelFamily`` with its settings type erased, as the registry and ``ModelConfiguration``
/// hold it; equal when the names are.
public struct RegisteredModelFamily: Sendable, Hashable, CustomStringConvertible {
    /// The family's `model.kind` name.
    public let name: String
    /// The family's one-line summary.
    public let summary: String
    /// The family's manifest keys, in reading order.
    public let settingKeys: [String]
    /// The reference rows of the family's keys, as `model.KEY`.
    package let referenceRows: [ManifestReferenceRow]

    let defaultSettings: @Sendable () -> any ModelSettings
    private let readSettings: @Sendable (ManifestObjectReader) -> any ModelSettings
    private let decodeSettings: @Sendable (Decoder) throws -> any ModelSettings
    private let build: @Sendable (any ModelSettings, ModelInput, inout SeededGenerator) throws -> any Classifier
    private let estimateMemory: @Sendable (any ModelSettings, ModelInput) -> TrainingMemoryEstimate?
    private let describePlan: @Sendable (any ModelSettings, ModelInput) -> String
    private let describeSettings: @Sendable (any ModelSettings) -> String

    /// Erases `family`'s settings type.
    package init<Family: ModelFamily>(_ family: Family) {
        name = family.name
        summary = family.summary
        settingKeys = Family.Settings.settings.map(\.key)
        referenceRows = Family.Settings.referenceRows(under: "model")
        defaultSettings = { Family.Settings.defaults }
        readSettings = { object in family.read(object) }
        decodeSettings = { decoder in try Family.Settings(from: decoder) }
        build = { settings, input, generator in
            guard let typed = settings as? Family.Settings else {
                throw ModelRegistryError.settingsMismatch(family: family.name, settings: String(describing: type(of: settings)))
            }
            return try family.makeClassifier(typed, for: input, using: &generator)
        }
        estimateMemory = { settings, input in
            family.memoryEstimate(settings as? Family.Settings ?? Family.Settings.defaults, for: input)
        }
        describePlan = { settings, input in family.planDescription(settings as? Family.Settings ?? Family.Settings.defaults, for: input) }
        describeSettings = { settings in family.settingsDescription(settings as? Family.Settings ?? Family.Settings.defaults) }
    }

    public var description: String { name }

    public static func == (lhs: RegisteredModelFamily, rhs: RegisteredModelFamily) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    func read(_ object: ManifestObjectReader) -> any ModelSettings {
        readSettings(object)
    }

    func decode(from decoder: Decoder) throws -> any ModelSettings { try decodeSettings(decoder) }

    func makeClassifier(_ settings: any ModelSettings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        try build(settings, input, &generator)
    }

    func memoryEstimate(_ settings: any ModelSettings, for input: ModelInput) -> TrainingMemoryEstimate? {
        estimateMemory(settings, input)
    }

    func planDescription(_ settings: any ModelSettings, for input: ModelInput) -> String { describePlan(settings, input) }

    func settingsDescription(_ settings: any ModelSettings) -> String { describeSettings(settings) }
}
