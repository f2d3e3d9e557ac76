import JSON5

/// A section just read by ``ManifestSection/read(_:startingFrom:)``, with how reading each key
/// went, for the checks a section makes across its keys.
///
/// Keys are named by key path (`reading.node(\.momentum)`), so a section's checks never restate
/// a key's name.
package struct ManifestSectionReading<Section: ManifestSection> {
    /// The section: defaults, overwritten by every valid stated value.
    package var value: Section
    /// The section's manifest object.
    package let object: ManifestObjectReader
    private let outcomes: [String: ManifestObjectReader.Outcome]
    private let derivedValues: [String: Any]

    init(value: Section, object: ManifestObjectReader, outcomes: [String: ManifestObjectReader.Outcome], derivedValues: [String: Any]) {
        self.value = value
        self.object = object
        self.outcomes = outcomes
        self.derivedValues = derivedValues
    }

    /// The manifest key declared for `keyPath`.
    ///
    /// A key path without a declared setting is a programming error that the section's tests
    /// show: its description stands in for the key.
    package func key(_ keyPath: PartialKeyPath<Section>) -> String {
        Section.key(keyPath)
    }

    /// How reading the key of `keyPath` went; for a key read by the section itself
    /// (``Setting/readBySection()``), only whether it is present (`.valid`) or not (`.absent`).
    package func outcome(_ keyPath: PartialKeyPath<Section>) -> ManifestObjectReader.Outcome {
        outcomes[key(keyPath)] ?? .absent
    }

    /// The stated value of the key of `keyPath`, or `nil` if absent.
    package func node(_ keyPath: PartialKeyPath<Section>) -> ManifestNode? {
        object.member(key(keyPath))
    }

    /// The JSON path of the key of `keyPath`, such as `training.optimizer`, for messages.
    package func path(_ keyPath: PartialKeyPath<Section>) -> JSONPath {
        object.path(key(keyPath))
    }

    /// The checked value of a ``Setting/derived(_:_:_:_:)`` key, or `nil` if absent or invalid.
    package func derivedValue<Value>(_ keyPath: KeyPath<Section, Value>) -> Value? {
        derivedValues[key(keyPath)] as? Value
    }

    /// Reads the nested section of `keyPath` with `decode`, from an empty object when absent
    /// (``ManifestObjectReader/section(_:_:)``); `nil` if the key is not an object.
    package func section<Nested>(_ keyPath: PartialKeyPath<Section>, _ decode: (ManifestObjectReader) -> Nested?) -> Nested? {
        object.section(key(keyPath), decode)
    }
}
