import NeuralNetwork
import Protobuf

extension ONNX {
    /// A constant tensor, such as a weight (`onnx.proto`, message `TensorProto`).
    ///
    /// Values are stored in `raw_data` (field 9): "elements MUST be stored in as fixed-width,
    /// little-endian order. Floating-point data types MUST be stored in IEEE 754 format", row-major.
    public struct TensorProto: Hashable, Sendable, ProtobufMessage {
        /// The element types ActionLab writes (`TensorProto.DataType`).
        public enum DataType: Int32, Sendable {
            /// `FLOAT = 1`: IEEE 754 single precision.
            case float = 1
            /// `INT64 = 7`: two's complement 64-bit integers (shapes for `Reshape`).
            case int64 = 7
        }

        /// Field 1, `dims`: the shape, outermost first; empty for a scalar.
        public var dims: [Int64]
        /// Field 2, `data_type`.
        public var dataType: DataType
        /// Field 8, `name`: the value name nodes refer to.
        public var name: String
        /// Field 9, `raw_data`: the elements, little-endian.
        public var rawData: [UInt8]

        /// Creates a tensor from already encoded little-endian elements.
        public init(name: String, dims: [Int64], dataType: DataType, rawData: [UInt8]) {
            self.name = name
            self.dims = dims
            self.dataType = dataType
            self.rawData = rawData
        }

        /// Creates a `FLOAT` tensor with the shape and values of `tensor`.
        public init(name: String, tensor: Tensor) {
            var raw: [UInt8] = []
            raw.reserveCapacity(4 * tensor.count)
            for value in tensor.values { raw.appendLittleEndian(value.bitPattern) }
            self.init(name: name, dims: tensor.shape.map(Int64.init), dataType: .float, rawData: raw)
        }

        /// Creates a one-dimensional `INT64` tensor, such as the target shape of a `Reshape`.
        public init(name: String, int64s values: [Int64]) {
            var raw: [UInt8] = []
            raw.reserveCapacity(8 * values.count)
            for value in values { raw.appendLittleEndian(UInt64(bitPattern: value)) }
            self.init(name: name, dims: [Int64(values.count)], dataType: .int64, rawData: raw)
        }

        /// Creates a zero-dimensional (scalar) `INT64` tensor, such as the axis of a `CumSum`.
        public init(name: String, int64Scalar value: Int64) {
            var raw: [UInt8] = []
            raw.appendLittleEndian(UInt64(bitPattern: value))
            self.init(name: name, dims: [], dataType: .int64, rawData: raw)
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writePackedInt64(field: 1, dims)
            encoder.writeInt32(field: 2, dataType.rawValue)
            encoder.writeString(field: 8, name)
            encoder.writeBytes(field: 9, rawData)
        }
    }
}

extension [UInt8] {
    /// Appends the little-endian bytes of a fixed-width integer.
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        var littleEndian = value.littleEndian
        Swift.withUnsafeBytes(of: &littleEndian) { append(contentsOf: $0) }
    }
}
