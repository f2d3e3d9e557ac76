import Protobuf

extension ONNX {
    /// The type of a graph input or output (`onnx.proto`, message `TypeProto`); only the
    /// `tensor_type` case of its `oneof value` is modelled.
    public struct TypeProto: Hashable, Sendable, ProtobufMessage {
        /// `TypeProto.Tensor`: a dense tensor's element type and shape.
        public struct TensorType: Hashable, Sendable, ProtobufMessage {
            /// Field 1, `elem_type`: a `TensorProto.DataType`.
            public var elementType: TensorProto.DataType
            /// Field 2, `shape`.
            public var shape: TensorShapeProto

            public func encode(to encoder: inout ProtobufEncoder) {
                encoder.writeInt32(field: 1, elementType.rawValue)
                encoder.writeMessage(field: 2, shape)
            }
        }

        /// Field 1, `tensor_type`.
        public var tensorType: TensorType

        /// A dense tensor type with fixed extents.
        ///
        /// - Parameters:
        ///   - elementType: The element type.
        ///   - shape: The extents, outermost first, e.g. `[window, 3, 18]`.
        public static func tensor(_ elementType: TensorProto.DataType, shape: [Int]) -> TypeProto {
            TypeProto(tensorType: TensorType(
                elementType: elementType, shape: TensorShapeProto(shape.map { .value(Int64($0)) })))
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeMessage(field: 1, tensorType)
        }
    }
}
