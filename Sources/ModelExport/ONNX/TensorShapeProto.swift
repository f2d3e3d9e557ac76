import Protobuf

extension ONNX {
    /// A tensor's shape in a graph's type information (`onnx.proto`, message `TensorShapeProto`).
    public struct TensorShapeProto: Hashable, Sendable, ProtobufMessage {
        /// One dimension (`TensorShapeProto.Dimension`), a `oneof value`.
        public enum Dimension: Hashable, Sendable, ProtobufMessage {
            /// Field 1, `dim_value`: a fixed extent.
            case value(Int64)
            /// Field 2, `dim_param`: a symbolic extent such as `"batch"`.
            case parameter(String)

            public func encode(to encoder: inout ProtobufEncoder) {
                switch self {
                case .value(let extent): encoder.writeInt64(field: 1, extent)
                case .parameter(let name): encoder.writeString(field: 2, name)
                }
            }
        }

        /// Field 1, `dim`: the dimensions, outermost first.
        public var dimensions: [Dimension]

        /// Creates a shape.
        public init(_ dimensions: [Dimension]) {
            self.dimensions = dimensions
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            for dimension in dimensions { encoder.writeMessage(field: 1, dimension) }
        }
    }
}
