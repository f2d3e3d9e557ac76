import Foundation
import JSON5

/// A resolved configuration (JSON) flattened into MLflow parameters: one per leaf, keyed by its
/// dotted path (`training.learningRate`, `windows.duration`).
///
/// Objects are descended into; every other value is a leaf: strings as their text, numbers,
/// Booleans and `null` as JSON, arrays (augmentation steps, channel plans) as compact JSON text
/// with sorted keys. An empty object is the leaf `{}`. Values longer than MLflow's limit of
/// ``maximumValueLength`` characters are cut there and listed in ``truncated``.
struct ConfigurationParameters {
    /// MLflow's limit on a parameter's value (`MAX_PARAM_VAL_LENGTH`, 6,000 since MLflow 1.28).
    static let maximumValueLength = 6000

    private(set) var parameters: [MLflowKeyValue] = []
    /// Paths whose values were cut to ``maximumValueLength``.
    private(set) var truncated: [String] = []

    /// Flattens `configuration`, prefixing every path with `prefix` (empty for none).
    init(_ configuration: JSON5Value, prefix: String = "") {
        add(configuration, path: prefix)
    }

    /// A swept value's canonical JSON text as a parameter value: a string's contents, any other
    /// value's JSON text.
    static func text(ofCanonicalJSON text: String) -> String {
        guard text.hasPrefix("\""), let value = try? JSON5Value(parsing: Data(text.utf8)), let string = value.stringValue else { return text }
        return string
    }

    private mutating func add(_ value: JSON5Value, path: String) {
        if let members = value.objectMembers, !members.isEmpty {
            for member in members {
                add(member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)")
            }
            return
        }
        var text = value.stringValue ?? value.jsonString(sortedKeys: true)
        if text.count > Self.maximumValueLength {
            text = String(text.prefix(Self.maximumValueLength))
            truncated.append(path)
        }
        parameters.append(MLflowKeyValue(key: path, value: text))
    }
}
