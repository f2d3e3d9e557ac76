import Protobuf

/// A hyperparameter of an HParams experiment: its name and the values the sweep gives it
/// (`HParamInfo` of `tensorboard/plugins/hparams/api.proto`: `name` = 1, `display_name` = 2,
/// `description` = 3, `type` = 4, `domain_discrete` = 5, a `google.protobuf.ListValue`).
public struct HParamInfo: Sendable, Equatable {
    /// The name sessions use for it in their `hparams` map.
    public var name: String
    /// Shown instead of the name when not empty.
    public var displayName: String
    /// A sentence shown as a tooltip; may be empty.
    public var description: String
    /// Every value the sweep gives it, in order; all of one kind for a typed column (mixed
    /// kinds are declared as strings).
    public var values: [HParamValue]

    /// Creates a hyperparameter description.
    public init(name: String, displayName: String = "", description: String = "", values: [HParamValue]) {
        self.name = name
        self.displayName = displayName
        self.description = description
        self.values = values
    }
}

extension HParamInfo: ProtobufMessage {
    /// Writes the message's fields, as the `.proto` file above numbers them.
    public func encode(to encoder: inout ProtobufEncoder) {
        encoder.writeString(field: 1, name)
        if !displayName.isEmpty { encoder.writeString(field: 2, displayName) }
        if !description.isEmpty { encoder.writeString(field: 3, description) }
        let kinds = Set(values.map(\.dataType))
        if kinds.count == 1, let kind = kinds.first {
            encoder.writeInt64(field: 4, kind)
            encoder.writeMessage(field: 5, ListValue(values: values))
        } else if !values.isEmpty {
            // Mixed kinds: a string column whose domain is the values' text.
            encoder.writeInt64(field: 4, HParamValue.string("").dataType)
            encoder.writeMessage(field: 5, ListValue(values: values.map { .string(Self.text(of: $0)) }))
        }
    }

    /// A value as text, for a column of mixed kinds.
    static func text(of value: HParamValue) -> String {
        switch value {
        case .number(let number): "\(number)"
        case .string(let string): string
        case .bool(let bool): "\(bool)"
        }
    }

    /// `google.protobuf.ListValue`: `values` = 1, repeated `Value`.
    private struct ListValue: ProtobufMessage {
        var values: [HParamValue]
        func encode(to encoder: inout ProtobufEncoder) {
            for value in values { encoder.writeMessage(field: 1, value) }
        }
    }
}
