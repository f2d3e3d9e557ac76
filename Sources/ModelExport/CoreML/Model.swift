import Protobuf

extension CoreML {
    /// The top-level message of a `.mlmodel` file (`Model.proto`, message `Model`), here always
    /// a neural-network classifier.
    public struct Model: Sendable, ProtobufMessage {
        /// Field 1, `specificationVersion`.
        public var specificationVersion: Int32
        /// Field 2, `description`: inputs, outputs, predicted-feature names and metadata.
        public var description: ModelDescription
        /// Field 403 of `oneof Type`, `neuralNetworkClassifier`.
        public var classifier: NeuralNetworkClassifier

        /// Creates a classifier model at ``CoreML/specificationVersion``.
        public init(description: ModelDescription, classifier: NeuralNetworkClassifier,
                    specificationVersion: Int32 = CoreML.specificationVersion) {
            self.specificationVersion = specificationVersion
            self.description = description
            self.classifier = classifier
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeInt32(field: 1, specificationVersion)
            encoder.writeMessage(field: 2, description)
            encoder.writeMessage(field: 403, classifier)
        }
    }

    /// What a model takes and gives (`Model.proto`, message `ModelDescription`).
    public struct ModelDescription: Sendable, ProtobufMessage {
        /// Field 1, `input`.
        public var inputs: [FeatureDescription]
        /// Field 10, `output`.
        public var outputs: [FeatureDescription]
        /// Field 11, `predictedFeatureName`: the output holding the most likely class label.
        public var predictedFeatureName: String
        /// Field 12, `predictedProbabilitiesName`: the output holding the label → probability dictionary.
        public var predictedProbabilitiesName: String
        /// Field 100, `metadata`.
        public var metadata: Metadata

        /// Creates a description.
        public init(inputs: [FeatureDescription], outputs: [FeatureDescription], predictedFeatureName: String,
                    predictedProbabilitiesName: String, metadata: Metadata) {
            self.inputs = inputs
            self.outputs = outputs
            self.predictedFeatureName = predictedFeatureName
            self.predictedProbabilitiesName = predictedProbabilitiesName
            self.metadata = metadata
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            for input in inputs { encoder.writeMessage(field: 1, input) }
            for output in outputs { encoder.writeMessage(field: 10, output) }
            encoder.writeString(field: 11, predictedFeatureName)
            encoder.writeString(field: 12, predictedProbabilitiesName)
            encoder.writeMessage(field: 100, metadata)
        }
    }

    /// Model metadata (`Model.proto`, message `Metadata`), shown by Xcode's model viewer.
    public struct Metadata: Sendable, ProtobufMessage {
        /// Field 1, `shortDescription`.
        public var shortDescription: String
        /// Field 2, `versionString`.
        public var versionString: String
        /// Field 3, `author`.
        public var author: String
        /// Field 100, `userDefined` (`map<string, string>`), in the given order; keys distinct.
        public var userDefined: [(key: String, value: String)]

        /// Creates metadata.
        public init(shortDescription: String, versionString: String, author: String, userDefined: [(key: String, value: String)]) {
            self.shortDescription = shortDescription
            self.versionString = versionString
            self.author = author
            self.userDefined = userDefined
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, shortDescription)
            encoder.writeString(field: 2, versionString)
            encoder.writeString(field: 3, author)
            for entry in userDefined { encoder.writeMessage(field: 100, StringPair(key: entry.key, value: entry.value)) }
        }
    }
}
