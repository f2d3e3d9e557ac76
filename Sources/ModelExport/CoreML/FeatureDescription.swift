import Protobuf

extension CoreML {
    /// One input or output of a model (`Model.proto`, message `FeatureDescription`).
    public struct FeatureDescription: Hashable, Sendable, ProtobufMessage {
        /// The feature's type (`FeatureTypes.proto`, message `FeatureType`, `oneof Type`).
        public enum FeatureType: Hashable, Sendable {
            /// Field 5, `multiArrayType`: an `ArrayFeatureType` of `FLOAT32` with this fixed shape.
            case float32Array(shape: [Int])
            /// Field 3, `stringType`.
            case string
            /// Field 6, `dictionaryType` with `stringKeyType` (field 2): label → probability.
            case stringKeyedDictionary
        }

        /// Field 1, `name`.
        public var name: String
        /// Field 2, `shortDescription`.
        public var shortDescription: String
        /// Field 3, `type`.
        public var type: FeatureType

        /// Creates a feature description.
        public init(name: String, shortDescription: String, type: FeatureType) {
            self.name = name
            self.shortDescription = shortDescription
            self.type = type
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, name)
            encoder.writeString(field: 2, shortDescription)
            encoder.writeMessage(field: 3, TypeMessage(type: type))
        }

        private struct TypeMessage: ProtobufMessage {
            var type: FeatureType

            func encode(to encoder: inout ProtobufEncoder) {
                switch type {
                case .float32Array(let shape):
                    encoder.writeMessage(field: 5, ArrayType(shape: shape))
                case .string:
                    encoder.writeMessage(field: 3, EmptyMessage())
                case .stringKeyedDictionary:
                    encoder.writeMessage(field: 6, DictionaryType())
                }
            }
        }

        /// `ArrayFeatureType`: field 1 `shape` (packed), field 2 `dataType`.
        private struct ArrayType: ProtobufMessage {
            var shape: [Int]

            func encode(to encoder: inout ProtobufEncoder) {
                encoder.writePackedInt64(field: 1, shape.map(Int64.init))
                encoder.writeInt64(field: 2, CoreML.float32DataType)
            }
        }

        /// `DictionaryFeatureType` with field 2, `stringKeyType`.
        private struct DictionaryType: ProtobufMessage {
            func encode(to encoder: inout ProtobufEncoder) {
                encoder.writeMessage(field: 2, EmptyMessage())
            }
        }
    }
}
