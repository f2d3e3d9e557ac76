import Protobuf

/// Apple's Core ML model format (`.mlmodel`), as far as ActionLab writes it.
///
/// The nested types mirror messages of the Core ML specification in coremltools'
/// `mlmodel/format/` (`Model.proto`, `FeatureTypes.proto`, `NeuralNetwork.proto`,
/// `DataStructures.proto`) and carry their field numbers; each serializes itself with
/// ``ProtobufEncoder``. Only what an action classifier built from dense float layers needs is
/// modelled: a `NeuralNetworkClassifier` with exact-rank multi-array inputs.
public enum CoreML {
    /// `Model.specificationVersion`: 4, the first version with exact-rank multi-array mapping and
    /// the N-dimensional layers used here (`reshapeStatic`, `transpose`, `batchedMatmul`,
    /// `softmaxND`, ...; `NeuralNetwork.proto`: "Supported only for Specification version >= 4
    /// (iOS >= 13, macOS >= 10.15)").
    public static let specificationVersion: Int32 = 4

    /// `ArrayFeatureType.ArrayDataType.FLOAT32` (`FeatureTypes.proto`): `0x10000 | 32`.
    static let float32DataType: Int64 = 65568

    /// `NeuralNetworkMultiArrayShapeMapping.EXACT_ARRAY_MAPPING` (`NeuralNetwork.proto`): the
    /// input's shape and rank reach the layers as declared.
    static let exactArrayMapping: Int64 = 1

    /// A message without fields, such as `StringFeatureType` or `ActivationReLU`: on the wire a
    /// tag and a zero length, which selects a `oneof` case.
    struct EmptyMessage: ProtobufMessage {
        func encode(to encoder: inout ProtobufEncoder) {}
    }

    /// A `map<string, string>` entry (protobuf language guide, "Maps": a repeated message with
    /// `key = 1`, `value = 2`).
    struct StringPair: ProtobufMessage {
        var key: String
        var value: String

        func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, key)
            encoder.writeString(field: 2, value)
        }
    }
}
