/// The wire type in the low three bits of a protocol buffers field tag.
///
/// Protocol Buffers Encoding guide, "Message Structure": a tag is the varint
/// `(field_number << 3) | wire_type`. Only the wire types ActionLab writes are listed; the
/// deprecated group types (3, 4) are never written.
public enum ProtobufWireType: UInt64, Sendable {
    /// `int32`, `int64`, `uint32`, `uint64`, `sint*`, `bool`, `enum`: a base-128 varint.
    case varint = 0
    /// `fixed64`, `sfixed64`, `double`: eight little-endian bytes.
    case fixed64 = 1
    /// `string`, `bytes`, embedded messages and packed repeated fields: a varint length, then
    /// that many bytes.
    case lengthDelimited = 2
    /// `fixed32`, `sfixed32`, `float`: four little-endian bytes.
    case fixed32 = 5
}
