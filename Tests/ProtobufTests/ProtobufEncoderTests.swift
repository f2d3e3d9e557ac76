import Protobuf
import Testing

/// Byte-exact checks of the wire format against the worked examples of the Protocol Buffers
/// Encoding guide (<https://protobuf.dev/programming-guides/encoding/>) and hand-encoded values.
@Suite struct ProtobufEncoderTests {
    /// A message with one `int64` field, as in the guide's `Test1 { a = 150 }`.
    struct Test1: ProtobufMessage {
        var a: Int64
        func encode(to encoder: inout ProtobufEncoder) { encoder.writeInt64(field: 1, a) }
    }

    static let varints: [(UInt64, [UInt8])] = [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        (128, [0x80, 0x01]),
        (150, [0x96, 0x01]),
        (300, [0xAC, 0x02]),
        (UInt64(UInt32.max), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: varints)
    func varintsUseSevenBitGroupsLeastSignificantFirst(value: UInt64, expected: [UInt8]) {
        var encoder = ProtobufEncoder()
        encoder.appendVarint(value)
        #expect(encoder.bytes == expected)
    }

    @Test func guideExampleTest1WithA150() {
        #expect(Test1(a: 150).serializedBytes() == [0x08, 0x96, 0x01])
    }

    @Test func tagsCombineFieldNumberAndWireType() {
        var encoder = ProtobufEncoder()
        encoder.appendTag(field: 20, wireType: .varint)  // AttributeProto.type: 20 << 3 = 160
        encoder.appendTag(field: 2, wireType: .lengthDelimited)
        encoder.appendTag(field: 2, wireType: .fixed32)
        #expect(encoder.bytes == [0xA0, 0x01, 0x12, 0x15])
    }

    @Test func negativeIntegersAreSignExtendedToTenBytes() {
        var encoder = ProtobufEncoder()
        encoder.writeInt64(field: 1, -1)
        encoder.writeInt32(field: 1, -2)
        #expect(encoder.bytes == [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01]
            + [0x08, 0xFE] + [UInt8](repeating: 0xFF, count: 8) + [0x01])
    }

    @Test func guideExampleStringTesting() {
        var encoder = ProtobufEncoder()
        encoder.writeString(field: 2, "testing")
        #expect(encoder.bytes == [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
    }

    @Test func guideExampleEmbeddedMessage() {
        var encoder = ProtobufEncoder()
        encoder.writeMessage(field: 3, Test1(a: 150))
        #expect(encoder.bytes == [0x1A, 0x03, 0x08, 0x96, 0x01])
    }

    @Test func guideExamplePackedRepeatedInt64() {
        var encoder = ProtobufEncoder()
        encoder.writePackedInt64(field: 4, [3, 270, 86942])
        #expect(encoder.bytes == [0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05])
    }

    @Test func floatsAreLittleEndianIEEE754() {
        var encoder = ProtobufEncoder()
        encoder.writeFloat(field: 2, 1)
        encoder.writePackedFloat(field: 7, [1, -2])
        #expect(encoder.bytes == [0x15, 0x00, 0x00, 0x80, 0x3F]
            + [0x3A, 0x08, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0])
    }

    @Test func doublesAreLittleEndianIEEE754AndBoolsVarints() {
        var encoder = ProtobufEncoder()
        encoder.writeDouble(field: 1, 1)  // 0x3FF0000000000000
        encoder.writeDouble(field: 2, -0.5)  // 0xBFE0000000000000
        encoder.writeBool(field: 4, true)
        encoder.writeBool(field: 4, false)
        #expect(encoder.bytes == [0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F] + [0x11, 0, 0, 0, 0, 0, 0, 0xE0, 0xBF]
            + [0x20, 0x01, 0x20, 0x00])
    }

    @Test func emptyPackedFieldsAreAbsent() {
        var encoder = ProtobufEncoder()
        encoder.writePackedInt64(field: 1, [])
        encoder.writePackedFloat(field: 7, [])
        #expect(encoder.bytes.isEmpty)
    }

    @Test func lengthsLongerThan127TakeTwoBytes() {
        var encoder = ProtobufEncoder()
        encoder.writeBytes(field: 9, [UInt8](repeating: 7, count: 200))
        #expect(Array(encoder.bytes.prefix(3)) == [0x4A, 0xC8, 0x01])
        #expect(encoder.bytes.count == 203)
    }
}
