import Protobuf

extension ONNX {
    /// One operator application in a graph (`onnx.proto`, message `NodeProto`).
    public struct NodeProto: Hashable, Sendable, ProtobufMessage {
        /// Field 1, `input`: the names of the input values, in the operator's input order.
        public var inputs: [String]
        /// Field 2, `output`: the names of the values the node produces.
        public var outputs: [String]
        /// Field 3, `name`: an identifier for the node, unique in the graph.
        public var name: String
        /// Field 4, `op_type`: the operator, e.g. `Conv` (ONNX `docs/Operators.md`).
        public var opType: String
        /// Field 5, `attribute`.
        public var attributes: [AttributeProto]
        /// Field 7, `domain`: the operator set domain; empty for the default `ai.onnx`.
        public var domain: String

        /// Creates a node.
        public init(opType: String, inputs: [String], outputs: [String], name: String,
                    attributes: [AttributeProto] = [], domain: String = "") {
            self.opType = opType
            self.inputs = inputs
            self.outputs = outputs
            self.name = name
            self.attributes = attributes
            self.domain = domain
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            for input in inputs { encoder.writeString(field: 1, input) }
            for output in outputs { encoder.writeString(field: 2, output) }
            encoder.writeString(field: 3, name)
            encoder.writeString(field: 4, opType)
            for attribute in attributes { encoder.writeMessage(field: 5, attribute) }
            if !domain.isEmpty { encoder.writeString(field: 7, domain) }
        }
    }
}
