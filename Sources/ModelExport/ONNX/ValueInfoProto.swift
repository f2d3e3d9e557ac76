import Protobuf

extension ONNX {
    /// The name, type and documentation of a graph input or output
    /// (`onnx.proto`, message `ValueInfoProto`).
    public struct ValueInfoProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `name`.
        public var name: String
        /// Field 2, `type`: required for the inputs and outputs of the top-level graph.
        public var type: TypeProto
        /// Field 3, `doc_string`: a human-readable description; omitted when empty.
        public var documentation: String

        /// Creates a value description.
        public init(name: String, type: TypeProto, documentation: String = "") {
            self.name = name
            self.type = type
            self.documentation = documentation
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, name)
            encoder.writeMessage(field: 2, type)
            if !documentation.isEmpty { encoder.writeString(field: 3, documentation) }
        }
    }
}
