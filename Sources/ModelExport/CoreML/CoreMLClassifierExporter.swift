import NeuralNetwork

/// Builds the Core ML model (`.mlmodel`) of an action classifier with Create ML's interface.
///
/// Input `poses`, MultiArray float32 `[T, C, J]` (`[window, 3, 18]` for Vision-18); outputs
/// `labelProbabilities`, a dictionary from class label to probability, and `label`, the most
/// likely class label (`ModelDescription.predictedProbabilitiesName` and
/// `predictedFeatureName`). The network is a `NeuralNetworkClassifier` with string class labels:
/// ```
/// poses [T, C, J] → (the model's own layers, CoreMLExportable) → logits [1, K]
///   → reshapeStatic [K] → softmaxND (axis −1) → probabilities
/// ```
/// Core ML computes the outputs from the `probabilities` blob (`labelProbabilityLayerName`).
public struct CoreMLClassifierExporter: Sendable {
    /// The input's name, Create ML's `poses`.
    public static let inputName = "poses"
    /// The dictionary output, Create ML's `labelProbabilities`.
    public static let probabilitiesName = "labelProbabilities"
    /// The label output, Create ML's `label`.
    public static let labelName = "label"
    /// The blob that holds the class probabilities `[K]`.
    public static let probabilityBlobName = "probabilities"

    /// `Metadata.author`.
    public var author: String
    /// `Metadata.versionString`.
    public var version: String

    /// Creates an exporter that signs models with the given author and version.
    public init(author: String = "ActionLab", version: String) {
        self.author = author
        self.version = version
    }

    /// The Core ML model of `classifier` for windows of the given shape.
    ///
    /// - Parameters:
    ///   - classifier: The trained model; its evaluation-mode forward pass is exported.
    ///   - window: The input window shape `[T, C, J]`.
    ///   - labels: The class labels in the order of the model's outputs; one per class.
    ///   - metadata: `Metadata.userDefined`, in order; keys must be distinct.
    ///   - description: `Metadata.shortDescription`.
    /// - Returns: The model, ready for `serializedData()`.
    /// - Throws: ``ModelExportError``; `inputShapeMismatch` also when the labels are not one per class.
    public func model(
        of classifier: any CoreMLExportable, window: KeypointWindowShape, labels: [String],
        metadata: [(key: String, value: String)], description: String = ""
    ) throws -> CoreML.Model {
        var keys: Set<String> = []
        for (key, _) in metadata where !keys.insert(key).inserted {
            throw ModelExportError.duplicateMetadataKey(.coreML, key)
        }
        guard labels.count == classifier.classCount else {
            throw ModelExportError.inputShapeMismatch(
                .coreML, model: String(describing: type(of: classifier)), expected: "\(classifier.classCount) class labels, got \(labels.count)",
                window: window)
        }
        var network = CoreMLNetworkBuilder(inputNames: [Self.inputName, Self.probabilitiesName, Self.labelName])
        let logits = try classifier.appendCoreMLLayers(poses: Self.inputName, window: window, to: &network)
        let vector = network.addLayer("logits", inputs: [logits], .reshapeStatic(targetShape: [classifier.classCount]))
        let probabilities = try network.addWeightedLayer(Self.probabilityBlobName, inputs: [vector], .softmaxND(axis: -1))
        let description = CoreML.ModelDescription(
            inputs: [.init(
                name: Self.inputName, shortDescription: "One window of keypoints [frames, channels, joints] \(window)",
                type: .float32Array(shape: window.dimensions))],
            outputs: [
                .init(name: Self.probabilitiesName, shortDescription: "Probability of each action class", type: .stringKeyedDictionary),
                .init(name: Self.labelName, shortDescription: "The most likely action class", type: .string),
            ],
            predictedFeatureName: Self.labelName, predictedProbabilitiesName: Self.probabilitiesName,
            metadata: CoreML.Metadata(shortDescription: description, versionString: version, author: author, userDefined: metadata))
        return CoreML.Model(
            description: description,
            classifier: CoreML.NeuralNetworkClassifier(
                layers: network.layers, classLabels: labels, labelProbabilityLayerName: probabilities))
    }
}
