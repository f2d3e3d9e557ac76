import Protobuf

/// A hyperparameter's value as the HParams plugin stores it: a `google.protobuf.Value`
/// (`google/protobuf/struct.proto`) holding a number, a string or a Boolean.
public enum HParamValue: Sendable, Hashable {
    /// `number_value` = 2 (double).
    case number(Double)
    /// `string_value` = 3.
    case string(String)
    /// `bool_value` = 4.
    case bool(Bool)

    /// The plugin's `DataType` for this kind of value: `DATA_TYPE_STRING` = 1,
    /// `DATA_TYPE_BOOL` = 2, `DATA_TYPE_FLOAT64` = 3 (`tensorboard/plugins/hparams/api.proto`).
    var dataType: Int64 {
        switch self {
        case .string: 1
        case .bool: 2
        case .number: 3
        }
    }
}

extension HParamValue: ProtobufMessage {
    /// Writes the message's fields, as the `.proto` file above numbers them.
    public func encode(to encoder: inout ProtobufEncoder) {
        // The `kind` oneof: its member is written even when it holds the default value.
        switch self {
        case .number(let value): encoder.writeDouble(field: 2, value)
        case .string(let value): encoder.writeString(field: 3, value)
        case .bool(let value): encoder.writeBool(field: 4, value)
        }
    }
}
