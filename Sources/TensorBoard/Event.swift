import Protobuf

/// One record of a TensorBoard event file: TensorBoard's `Event` message
/// (`tensorboard/compat/proto/event.proto`): `wall_time` = 1 (double), `step` = 2 (int64), and of
/// its `what` oneof `file_version` = 3 (string) or `summary` = 5.
struct Event: ProtobufMessage, Sendable, Equatable {
    /// What the event carries.
    enum Content: Sendable, Equatable {
        /// The first event of every file: `brain.Event:2`.
        case fileVersion(String)
        case summary(Summary)
    }

    /// Seconds since 1970-01-01 UTC.
    var wallTime: Double
    /// The training step (for ActionLab, the epoch) the values belong to.
    var step: Int64
    var content: Content

    func encode(to encoder: inout ProtobufEncoder) {
        encoder.writeDouble(field: 1, wallTime)
        if step != 0 { encoder.writeInt64(field: 2, step) }
        // Members of a oneof are written even when they hold their default value.
        switch content {
        case .fileVersion(let version): encoder.writeString(field: 3, version)
        case .summary(let summary): encoder.writeMessage(field: 5, summary)
        }
    }
}

/// TensorBoard's `Summary` message (`tensorboard/compat/proto/summary.proto`): `value` = 1, repeated.
struct Summary: ProtobufMessage, Sendable, Equatable {
    /// `Summary.Value`: `tag` = 1, `simple_value` = 2 (float) or `tensor` = 8 (its `value` oneof),
    /// `metadata` = 9.
    struct Value: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// A scalar, read by TensorBoard's scalars dashboard.
            case simpleValue(Float)
            /// The empty float tensor (shape `[0]`) that plugin summaries such as the HParams
            /// plugin's carry beside their metadata (`tensorboard/plugins/hparams/metadata.py`, `NULL_TENSOR`).
            case emptyTensor
        }

        var tag: String
        var kind: Kind
        var metadata: SummaryMetadata?
    }

    var values: [Value]

    func encode(to encoder: inout ProtobufEncoder) {
        for value in values {
            encoder.writeMessage(field: 1, ValueEncoding(value: value))
        }
    }

    /// The wire form of one `Summary.Value`, fields in ascending order.
    private struct ValueEncoding: ProtobufMessage {
        var value: Value
        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, value.tag)
            switch value.kind {
            case .simpleValue(let number): encoder.writeFloat(field: 2, number)
            case .emptyTensor: encoder.writeMessage(field: 8, EmptyFloatTensor())
            }
            if let metadata = value.metadata { encoder.writeMessage(field: 9, metadata) }
        }
    }

    /// `TensorProto` with `dtype` = 1 (`DT_FLOAT` = 1) and `tensor_shape` = 2 holding one `dim`
    /// (field 2) of size 0 (`TensorShapeProto.Dim.size` = 1, left out as proto3's default).
    private struct EmptyFloatTensor: ProtobufMessage {
        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeInt64(field: 1, 1)
            encoder.writeMessage(field: 2, ShapeWithOneEmptyDimension())
        }
    }

    private struct ShapeWithOneEmptyDimension: ProtobufMessage {
        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeMessage(field: 2, EmptyMessage())
        }
    }
}

/// TensorBoard's `SummaryMetadata` with only `plugin_data` = 1, a `PluginData` of `plugin_name` = 1
/// and `content` = 2 (bytes the plugin parses).
struct SummaryMetadata: ProtobufMessage, Sendable, Equatable {
    var pluginName: String
    var content: [UInt8]

    func encode(to encoder: inout ProtobufEncoder) {
        encoder.writeMessage(field: 1, PluginData(pluginName: pluginName, content: content))
    }

    private struct PluginData: ProtobufMessage {
        var pluginName: String
        var content: [UInt8]
        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, pluginName)
            if !content.isEmpty { encoder.writeBytes(field: 2, content) }
        }
    }
}

/// A message with no fields set: zero bytes on the wire.
struct EmptyMessage: ProtobufMessage {
    func encode(to encoder: inout ProtobufEncoder) {}
}
