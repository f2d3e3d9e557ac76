import Protobuf

extension ONNX {
    /// One key–value pair of model metadata (`onnx.proto`, message `StringStringEntryProto`).
    public struct StringStringEntryProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `key`.
        public var key: String
        /// Field 2, `value`.
        public var value: String

        /// Creates a metadata entry.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, key)
            encoder.writeString(field: 2, value)
        }
    }
}
