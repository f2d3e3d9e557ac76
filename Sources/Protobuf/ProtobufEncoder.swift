import Foundation

/// Appends protocol buffers wire-format fields to a byte buffer.
///
/// Implements the subset of the Protocol Buffers Encoding guide
/// (<https://protobuf.dev/programming-guides/encoding/>) that ActionLab's file formats (ONNX models, TensorBoard event files) need:
/// - varints: little-endian base-128 groups of seven bits, the high bit set on every byte but
///   the last; negative `int32` and `int64` values are sign-extended to 64 bits and so always
///   take ten bytes ("Signed Integers");
/// - `float` as `fixed32` and `double` as `fixed64`: the IEEE 754 bit pattern, little-endian;
/// - `bool` as a varint 0 or 1;
/// - length-delimited fields: strings (UTF-8), bytes, embedded messages;
/// - packed repeated scalars: one length-delimited field holding the concatenated values
///   ("Packed Repeated Fields"). Parsers must accept packed encoding for any repeated scalar
///   field, proto2 or proto3, so packing is used for every repeated number.
///
/// Fields are written in the order of the calls; ``ProtobufMessage`` conformers call them in
/// ascending field-number order, as the reference serializers do.
public struct ProtobufEncoder: Sendable {
    /// The encoded bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty encoder.
    public init() {}

    /// Appends a base-128 varint.
    ///
    /// - Parameter value: The value; 0 to 127 take one byte, `UInt64.max` ten.
    public mutating func appendVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Appends a field tag, the varint `(field << 3) | wireType`.
    ///
    /// - Parameters:
    ///   - field: The field number from the `.proto` file, 1 to 2²⁹ − 1.
    ///   - wireType: How the value that follows is encoded.
    public mutating func appendTag(field: Int, wireType: ProtobufWireType) {
        precondition(field >= 1 && field < 1 << 29, "protobuf field numbers are 1 to 2^29 - 1, got \(field)")
        appendVarint(UInt64(field) << 3 | wireType.rawValue)
    }

    /// Writes an `int64` field (also used for `enum`s and `int32`s widened to 64 bits).
    ///
    /// - Parameters:
    ///   - field: The field number.
    ///   - value: The value; a negative value is its 64-bit two's complement (ten bytes).
    public mutating func writeInt64(field: Int, _ value: Int64) {
        appendTag(field: field, wireType: .varint)
        appendVarint(UInt64(bitPattern: value))
    }

    /// Writes an `int32` field; negative values are sign-extended to 64 bits, as the guide requires.
    public mutating func writeInt32(field: Int, _ value: Int32) {
        writeInt64(field: field, Int64(value))
    }

    /// Writes a `float` field as `fixed32`: the little-endian IEEE 754 single-precision bits.
    public mutating func writeFloat(field: Int, _ value: Float) {
        appendTag(field: field, wireType: .fixed32)
        appendLittleEndian(value.bitPattern)
    }

    /// Writes a `double` field as `fixed64`: the little-endian IEEE 754 double-precision bits.
    public mutating func writeDouble(field: Int, _ value: Double) {
        appendTag(field: field, wireType: .fixed64)
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    /// Writes a `bool` field: the varint 1 for true, 0 for false.
    public mutating func writeBool(field: Int, _ value: Bool) {
        appendTag(field: field, wireType: .varint)
        appendVarint(value ? 1 : 0)
    }

    /// Writes a `bytes` field: the length as a varint, then the bytes.
    public mutating func writeBytes<Bytes: Collection>(field: Int, _ value: Bytes) where Bytes.Element == UInt8 {
        appendTag(field: field, wireType: .lengthDelimited)
        appendVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Writes a `string` field: its UTF-8 bytes, length-delimited.
    public mutating func writeString(field: Int, _ value: String) {
        writeBytes(field: field, Array(value.utf8))
    }

    /// Writes an embedded message field: the message's encoding, length-delimited.
    public mutating func writeMessage(field: Int, _ message: some ProtobufMessage) {
        var nested = ProtobufEncoder()
        message.encode(to: &nested)
        writeBytes(field: field, nested.bytes)
    }

    /// Writes a packed repeated `int64` field; writes nothing for an empty array (an empty
    /// repeated field is absent on the wire).
    public mutating func writePackedInt64(field: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        var payload = ProtobufEncoder()
        for value in values { payload.appendVarint(UInt64(bitPattern: value)) }
        writeBytes(field: field, payload.bytes)
    }

    /// Writes a packed repeated `float` field (four bytes per value); nothing for an empty array.
    public mutating func writePackedFloat(field: Int, _ values: [Float]) {
        guard !values.isEmpty else { return }
        var payload = ProtobufEncoder()
        payload.bytes.reserveCapacity(4 * values.count)
        for value in values { payload.appendLittleEndian(value.bitPattern) }
        writeBytes(field: field, payload.bytes)
    }

    private mutating func appendLittleEndian(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }
}
