import Protobuf

extension ONNX {
    /// A named operator attribute, such as a convolution's `kernel_shape`
    /// (`onnx.proto`, message `AttributeProto`).
    public struct AttributeProto: Hashable, Sendable, ProtobufMessage {
        /// The attribute's value; its case selects the value field and `AttributeType`.
        public enum Value: Hashable, Sendable {
            /// Field 2, `f`; type `FLOAT = 1`.
            case float(Float)
            /// Field 3, `i`; type `INT = 2`.
            case int(Int64)
            /// Field 4, `s` (UTF-8); type `STRING = 3`.
            case string(String)
            /// Field 5, `t`; type `TENSOR = 4`.
            case tensor(TensorProto)
            /// Field 7, `floats`; type `FLOATS = 6`.
            case floats([Float])
            /// Field 8, `ints`; type `INTS = 7`.
            case ints([Int64])

            /// The `AttributeProto.AttributeType` number of this case.
            var attributeType: Int64 {
                switch self {
                case .float: 1
                case .int: 2
                case .string: 3
                case .tensor: 4
                case .floats: 6
                case .ints: 7
                }
            }
        }

        /// Field 1, `name`: the attribute's name in the operator's schema.
        public var name: String
        /// The value, written to its own field, and its type to field 20, `type`.
        public var value: Value

        /// Creates an attribute.
        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, name)
            switch value {
            case .float(let number): encoder.writeFloat(field: 2, number)
            case .int(let number): encoder.writeInt64(field: 3, number)
            case .string(let text): encoder.writeString(field: 4, text)
            case .tensor(let tensor): encoder.writeMessage(field: 5, tensor)
            case .floats(let numbers): encoder.writePackedFloat(field: 7, numbers)
            case .ints(let numbers): encoder.writePackedInt64(field: 8, numbers)
            }
            // "The type field MUST be present for this version of the IR."
            encoder.writeInt64(field: 20, value.attributeType)
        }
    }
}
