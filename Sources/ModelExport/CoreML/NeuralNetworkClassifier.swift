import Protobuf

extension CoreML {
    /// A neural network whose last layer's output is a probability per class label
    /// (`NeuralNetwork.proto`, message `NeuralNetworkClassifier`).
    public struct NeuralNetworkClassifier: Sendable, ProtobufMessage {
        /// Field 1, `layers`, in topological order.
        public var layers: [NeuralNetworkLayer]
        /// Field 100 of `oneof ClassLabels`, `stringClassLabels` (a `StringVector`, field 1 `vector`).
        public var classLabels: [String]
        /// Field 200, `labelProbabilityLayerName`: the blob holding the probabilities `[K]`, in
        /// the order of ``classLabels``.
        public var labelProbabilityLayerName: String

        /// Creates a classifier network; its multi-array inputs use `EXACT_ARRAY_MAPPING` (field 5).
        public init(layers: [NeuralNetworkLayer], classLabels: [String], labelProbabilityLayerName: String) {
            self.layers = layers
            self.classLabels = classLabels
            self.labelProbabilityLayerName = labelProbabilityLayerName
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            for layer in layers { encoder.writeMessage(field: 1, layer) }
            encoder.writeInt64(field: 5, CoreML.exactArrayMapping)
            encoder.writeMessage(field: 100, StringVector(values: classLabels))
            encoder.writeString(field: 200, labelProbabilityLayerName)
        }

        /// `DataStructures.proto`, message `StringVector`: field 1, `repeated string vector`.
        private struct StringVector: ProtobufMessage {
            var values: [String]

            func encode(to encoder: inout ProtobufEncoder) {
                for value in values { encoder.writeString(field: 1, value) }
            }
        }
    }

    /// One layer of a network (`NeuralNetwork.proto`, message `NeuralNetworkLayer`): its name,
    /// the blobs it reads and writes, and its parameters (`oneof layer`).
    public struct NeuralNetworkLayer: Sendable, ProtobufMessage {
        /// Field 1, `name`.
        public var name: String
        /// Field 2, `input`: blob names.
        public var inputs: [String]
        /// Field 3, `output`: blob names.
        public var outputs: [String]
        /// The `oneof layer` case.
        public var parameters: LayerParameters

        /// Creates a layer.
        public init(name: String, inputs: [String], outputs: [String], parameters: LayerParameters) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.parameters = parameters
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writeString(field: 1, name)
            for input in inputs { encoder.writeString(field: 2, input) }
            for output in outputs { encoder.writeString(field: 3, output) }
            parameters.encode(to: &encoder)
        }
    }

    /// A layer's weights (`NeuralNetwork.proto`, message `WeightParams`): field 1, `floatValue`,
    /// packed float32 in row-major order of the shape the layer documents.
    public struct WeightParams: Sendable, ProtobufMessage {
        /// The values.
        public var values: [Float]

        /// Creates weights.
        public init(_ values: [Float]) {
            self.values = values
        }

        public func encode(to encoder: inout ProtobufEncoder) {
            encoder.writePackedFloat(field: 1, values)
        }
    }
}
