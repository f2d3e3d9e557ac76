import ManifestSchema
import ModelExport
import Models
import NeuralNetwork
import Randomness

/// A model family that exists only in the tests, to show that registering a family is all it
/// takes to get the shared checks (``ModelFamilyChecks``) and manifest reading: `mean-pooling`,
/// the mean of every keypoint value over the window followed by one linear layer.
struct MeanPoolingTestFamily: ModelFamily {
    struct Settings: ModelSettings {
        var bias: Bool

        static var defaults: Settings { Settings(bias: true) }
        static var settings: [Setting<Settings>] { [Setting("bias", \.bias, .boolean, "whether the linear layer has a bias")] }

        init(bias: Bool) { self.bias = bias }
        func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
        init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
    }

    var name: String { "mean-pooling" }
    var summary: String { "mean over the window, then a linear layer (test family)" }

    func makeClassifier(_ settings: Settings, for input: ModelInput, using generator: inout SeededGenerator) throws -> any Classifier {
        MeanPoolingClassifier(
            channelCount: input.layout.channelCount, jointCount: input.layout.jointCount, classCount: input.classCount,
            bias: settings.bias, inputLayers: InputNormalization.layers(input.keypointNormalization, stream: input.streamConfiguration),
            using: &generator)
    }

    func memoryEstimate(_ settings: Settings, for input: ModelInput) -> TrainingMemoryEstimate? {
        let features = input.layout.channelCount * input.layout.jointCount
        return TrainingMemoryEstimate(
            parameters: features * input.classCount + input.classCount, activationsPerWindow: features * input.windowSize + features)
    }

    func planDescription(_ settings: Settings, for input: ModelInput) -> String {
        "mean pooling, " + settingsDescription(settings)
    }

    func settingsDescription(_ settings: Settings) -> String { "bias \(settings.bias ? "on" : "off")" }
}

/// `[N, C·J, T] → (normalization, stream) → mean over T → Linear(C·J → K)`.
final class MeanPoolingClassifier: Classifier, ONNXExportable, CoreMLExportable {
    let channelCount: Int
    let jointCount: Int
    let inputLayers: [(name: String, layer: any Layer)]
    let pooling = GlobalAveragePooling()
    let classifier: Linear

    init(
        channelCount: Int, jointCount: Int, classCount: Int, bias: Bool, inputLayers: [(name: String, layer: any Layer)],
        using generator: inout SeededGenerator
    ) {
        self.channelCount = channelCount
        self.jointCount = jointCount
        self.inputLayers = inputLayers
        classifier = Linear(inputs: channelCount * jointCount, outputs: classCount, bias: bias, using: &generator)
    }

    var classCount: Int { classifier.outputs }
    var inputShape: [Int?] { [channelCount * jointCount, nil] }
    var sublayers: [(name: String, layer: any Layer)] { inputLayers + [("pooling", pooling), ("classifier", classifier)] }

    func forward(_ x: Tensor, training: Bool) -> Tensor {
        let prepared = inputLayers.reduce(x) { $1.layer.forward($0, training: training) }
        return classifier.forward(pooling.forward(prepared, training: training), training: training)
    }

    func backward(_ gradOutput: Tensor) -> Tensor {
        inputLayers.reversed().reduce(pooling.backward(classifier.backward(gradOutput))) { $1.layer.backward($0) }
    }

    func appendONNXNodes(poses: String, window: KeypointWindowShape, to graph: inout ONNXGraphBuilder) throws -> String {
        let channelsFirst = try graph.appendChannelsFirstWindow(poses: poses, window: window)
        return try graph.appendLayers(sublayers, input: channelsFirst, path: "")
    }

    func appendCoreMLLayers(poses: String, window: KeypointWindowShape, to network: inout CoreMLNetworkBuilder) throws -> String {
        let channelsFirst = network.appendChannelsFirstWindow(poses: poses, window: window)
        return try network.appendLayers(sublayers, input: channelsFirst, path: "")
    }
}
