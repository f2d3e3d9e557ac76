import Foundation
import ModelExport
import NeuralNetwork
import Testing

/// The safetensors layout of huggingface/safetensors `README.md`, byte for byte.
@Suite struct SafetensorsFileTests {
    @Test func headerSizeJSONHeaderPaddingAndLittleEndianData() throws {
        let file = SafetensorsFile(
            tensors: [("a", Tensor(shape: [2], values: [1, -2])), ("b", Tensor(shape: [1, 1], values: [0.5]))],
            metadata: ["k": "v"])
        let bytes = [UInt8](try file.serialized())
        let json = #"{"__metadata__":{"k":"v"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"#
            + #""b":{"dtype":"F32","shape":[1,1],"data_offsets":[8,12]}}"#
        let headerSize = bytes.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(headerSize % 8 == 0, "data must start at a multiple of 8 bytes")
        #expect(headerSize >= json.utf8.count && headerSize < json.utf8.count + 8)
        let header = bytes[8..<(8 + headerSize)]
        #expect(Array(header) == Array(json.utf8) + [UInt8](repeating: 0x20, count: headerSize - json.utf8.count))
        #expect(Array(bytes[(8 + headerSize)...]) == [0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x3F])
    }

    @Test func namesAndMetadataAreEscapedJSON() throws {
        let name = "we\"ird\\name\n\u{1}é"
        let bytes = try SafetensorsFile(tensors: [(name, Tensor(zeros: [0]))], metadata: ["labels": #"["a","b"]"#]).serialized()
        let headerSize = Int(bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        let header = try #require(
            try JSONSerialization.jsonObject(with: bytes.subdata(in: 8..<(8 + headerSize))) as? [String: Any])
        #expect((header["__metadata__"] as? [String: String])?["labels"] == #"["a","b"]"#)
        let entry = try #require(header[name] as? [String: Any])
        #expect(entry["data_offsets"] as? [Int] == [0, 0])
        #expect(bytes.count == 8 + headerSize)
    }

    @Test func rejectsDuplicateEmptyAndReservedNames() {
        let t = Tensor(zeros: [1])
        #expect(throws: SafetensorsError.duplicateTensorName("x")) { try SafetensorsFile(tensors: [("x", t), ("x", t)]).serialized() }
        #expect(throws: SafetensorsError.invalidTensorName("__metadata__")) {
            try SafetensorsFile(tensors: [("__metadata__", t)]).serialized()
        }
        #expect(throws: SafetensorsError.invalidTensorName("")) { try SafetensorsFile(tensors: [("", t)]).serialized() }
    }
}
