import Protobuf

extension ONNX {
    /// The top-level message of a `.onnx` file: versions, producer, graph and metadata
    /// (`onnx.proto`, message `ModelProto`).
    public struct ModelProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `ir_version`: "This field MUST be present."
        public var irVersion: Int64
        /// Field 2, `producer_name`.
        public var producerName: String
        /// Field 3, `producer_version`.
        public var producerVersion: String
        /// Field 6, `doc_string`; omitted when empty.
        public var documentation: String
        /// Field 7, `graph`.
        public var graph: GraphProto
        /// Field 8, `opset_import`: at least the default-domain operator set.
        public var opsetImports: [OperatorSetIdProto]
        /// Field 14, `metadata_props`: "keys should be distinct".
        public var metadata: [StringStringEntryProto]

        /// Creates a model importing the default operator set ``ONNX/opsetVersion`` at IR
        /// version ``ONNX/irVersion``.
        public init(graph: GraphProto, producerName: String, producerVersion: String,
                    metadata: [StringStringEntryProto] = [], documentation: String = "",
                    irVersion: Int64 = ONNX.irVersion,
                    opsetImports: [OperatorSetIdProto] = [OperatorSetIdProto(version: ONNX.opsetVersion)]) {
            self.graph = graph
            self.producerName = producerName
            self.producerVersion = producerVersion
            self.metadata = metadata
            self.documentation = documentation
            self.irVersion = irVersion
            self.opsetImports = opsetImports
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeInt64(field: 1, irVersion)
            encoder.writeString(field: 2, producerName)
            encoder.writeString(field: 3, producerVersion)
            if !documentation.isEmpty { encoder.writeString(field: 6, documentation) }
            encoder.writeMessage(field: 7, graph)
            for opset in opsetImports { encoder.writeMessage(field: 8, opset) }
            for entry in metadata { encoder.writeMessage(field: 14, entry) }
        }
    }
}
