import Protobuf

extension ONNX {
    /// A computation graph: nodes in topological order, constant tensors, inputs and outputs
    /// (`onnx.proto`, message `GraphProto`).
    public struct GraphProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `node`: sorted topologically.
        public var nodes: [NodeProto]
        /// Field 2, `name`.
        public var name: String
        /// Field 5, `initializer`: named constants (weights); since IR 4 they need not be inputs.
        public var initializers: [TensorProto]
        /// Field 10, `doc_string`; omitted when empty.
        public var documentation: String
        /// Field 11, `input`.
        public var inputs: [ValueInfoProto]
        /// Field 12, `output`.
        public var outputs: [ValueInfoProto]

        /// Creates a graph.
        public init(name: String, nodes: [NodeProto], initializers: [TensorProto],
                    inputs: [ValueInfoProto], outputs: [ValueInfoProto], documentation: String = "") {
            self.name = name
            self.nodes = nodes
            self.initializers = initializers
            self.inputs = inputs
            self.outputs = outputs
            self.documentation = documentation
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            for node in nodes { encoder.writeMessage(field: 1, node) }
            encoder.writeString(field: 2, name)
            for initializer in initializers { encoder.writeMessage(field: 5, initializer) }
            if !documentation.isEmpty { encoder.writeString(field: 10, documentation) }
            for input in inputs { encoder.writeMessage(field: 11, input) }
            for output in outputs { encoder.writeMessage(field: 12, output) }
        }
    }
}
