import ModelExport
import NeuralNetwork
import Protobuf
import Testing

/// Hand-encoded bytes of the ONNX messages, with the field numbers of `onnx/onnx.proto`.
@Suite struct ONNXMessageTests {
    @Test func defaultDomainOperatorSetOmitsTheDomain() {
        // version = 2 → tag 0x10, 17 → 0x11
        #expect(ONNX.OperatorSetIdProto(version: 17).serializedBytes() == [0x10, 0x11])
        #expect(ONNX.OperatorSetIdProto(domain: "ai.onnx.ml", version: 3).serializedBytes()
            == [0x0A, 0x0A] + Array("ai.onnx.ml".utf8) + [0x10, 0x03])
    }

    @Test func intsAttributeCarriesItsTypeInField20() {
        let attribute = ONNX.AttributeProto("perm", .ints([0, 2, 1]))
        // name (1) "perm"; ints (8) packed; type (20) = INTS (7)
        #expect(attribute.serializedBytes()
            == [0x0A, 0x04, 0x70, 0x65, 0x72, 0x6D, 0x42, 0x03, 0x00, 0x02, 0x01, 0xA0, 0x01, 0x07])
    }

    @Test func floatAndIntAttributes() {
        // 1e-5 as float32 is 0x3727C5AC.
        #expect(ONNX.AttributeProto("epsilon", .float(1e-5)).serializedBytes()
            == [0x0A, 0x07] + Array("epsilon".utf8) + [0x15, 0xAC, 0xC5, 0x27, 0x37, 0xA0, 0x01, 0x01])
        // i (3) = 1; type INT (2). A zero value is still written: the field is present.
        #expect(ONNX.AttributeProto("axis", .int(0)).serializedBytes()
            == [0x0A, 0x04] + Array("axis".utf8) + [0x18, 0x00, 0xA0, 0x01, 0x02])
    }

    @Test func int64TensorUsesRawLittleEndianData() {
        let tensor = ONNX.TensorProto(name: "s", int64s: [2])
        // dims (1) packed [1]; data_type (2) INT64 = 7; name (8) "s"; raw_data (9) 8 bytes
        #expect(tensor.serializedBytes()
            == [0x0A, 0x01, 0x01, 0x10, 0x07, 0x42, 0x01, 0x73, 0x4A, 0x08, 0x02, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func floatTensorKeepsShapeAndRowMajorValues() {
        let tensor = ONNX.TensorProto(name: "w", tensor: Tensor(shape: [2, 1], values: [1, -2]))
        #expect(tensor.serializedBytes()
            == [0x0A, 0x02, 0x02, 0x01, 0x10, 0x01, 0x42, 0x01, 0x77, 0x4A, 0x08, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0])
    }

    @Test func valueInfoNestsTypeTensorTypeAndShape() {
        let info = ONNX.ValueInfoProto(name: "x", type: .tensor(.float, shape: [3]))
        // ValueInfo{name "x", type: Type{tensor_type: Tensor{elem_type 1, shape: Shape{dim: {dim_value 3}}}}}
        #expect(info.serializedBytes()
            == [0x0A, 0x01, 0x78, 0x12, 0x0A, 0x0A, 0x08, 0x08, 0x01, 0x12, 0x04, 0x0A, 0x02, 0x08, 0x03])
    }

    @Test func nodeListsInputsOutputsNameOpTypeAttributes() {
        let node = ONNX.NodeProto(
            opType: "Relu", inputs: ["a"], outputs: ["b"], name: "b")
        #expect(node.serializedBytes() == [0x0A, 0x01, 0x61, 0x12, 0x01, 0x62, 0x1A, 0x01, 0x62, 0x22, 0x04] + Array("Relu".utf8))
    }

    @Test func modelWritesIRVersionProducerGraphOpsetAndMetadata() {
        let graph = ONNX.GraphProto(name: "g", nodes: [], initializers: [], inputs: [], outputs: [])
        let model = ONNX.ModelProto(
            graph: graph, producerName: "P", producerVersion: "1",
            metadata: [ONNX.StringStringEntryProto(key: "k", value: "v")])
        #expect(model.serializedBytes()
            == [0x08, 0x08]                      // ir_version (1) = 8
            + [0x12, 0x01, 0x50]                 // producer_name (2)
            + [0x1A, 0x01, 0x31]                 // producer_version (3)
            + [0x3A, 0x03, 0x12, 0x01, 0x67]     // graph (7) { name (2) "g" }
            + [0x42, 0x02, 0x10, 0x11]           // opset_import (8) { version 17 }
            + [0x72, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x76])  // metadata_props (14) { k: v }
    }
}
