import ActionLabTestSupport
import Foundation
import ModelExport
import Models
import NeuralNetwork
import NeuralNetworkTestSupport
import Pose
import Protobuf
import Randomness
import Testing

/// The checks every registered model family passes, run over every family of
/// ``ModelFamilyChecks/registry`` — ActionLab's built-in families and presets, and the test-only
/// ``MeanPoolingTestFamily`` — as scikit-learn's `parametrize_with_checks` runs over every
/// estimator. A new family gets every check by being registered; none is written for it by hand.
@Suite struct ModelFamilyChecks {
    /// ActionLab's families plus the test family.
    static let registry: ModelRegistry = {
        do {
            return try ModelRegistry.builtIn.registering(MeanPoolingTestFamily())
        } catch {
            Issue.record("cannot register the test family: \(error)")
            return .builtIn
        }
    }()

    /// Vision-18 body pose (3 channels, 18 joints, 17 edges), as Create ML's model input.
    static let layout = SkeletonLayout.vision18
    static let (batch, frames, classes) = (3, 8, 3)

    static func configuration(
        _ family: RegisteredModelFamily, dropout: Double = 0, normalizeInput: Bool = false, stream: KeypointStream = .joint
    ) -> ModelConfiguration {
        var configuration = ModelConfiguration(family, dropout: dropout, normalizeInput: normalizeInput)
        configuration.stream = stream
        return configuration
    }

    /// The streams besides the joints, each computed inside the model.
    static let derivedStreams: [KeypointStream] = [.bone, .jointMotion, .boneMotion]

    /// The layouts whose in-model normalization every family is checked with: image pose
    /// (`KeypointNormalization`) and a 3-D skeleton (`SkeletonNormalization`).
    static let normalizedLayouts: [SkeletonLayout] = [.vision18, .kinectV1]

    static func model(_ configuration: ModelConfiguration, seed: UInt64, layout: SkeletonLayout = layout) throws -> any Classifier {
        var generator = SeededGenerator(seed: seed, purpose: "initialization")
        return try configuration.makeClassifier(layout: layout, windowSize: frames, classCount: classes, using: &generator)
    }

    /// Windows `[N, C·J, T]` of keypoint-like values in [0.5, 1), the trainer's layout.
    static func input(seed: UInt64, layout: SkeletonLayout = layout) -> Tensor {
        var tensor = randomTensor([batch, layout.channelCount * layout.jointCount, frames], seed: seed)
        tensor = tensor.map { 0.5 * $0 + 0.5 }
        return tensor
    }

    @Test func registryHoldsTheBuiltInFamiliesAndTheTestFamily() {
        #expect(Self.registry.names == ["tcn", "stgcn", "stgcn-small", "stgcnpp", "stgcnpp-small", "ctrgcn", "ctrgcn-small", "mlp", "mean-pooling"])
    }

    /// Output shape `[N, classes]`, bit-identical state for one seed and different for another
    /// after three training steps, and a state-dictionary round trip reproducing the outputs.
    @Test(arguments: registry.families)
    func classifierCheck(_ family: RegisteredModelFamily) throws {
        let configuration = Self.configuration(family, dropout: 0.1)
        try checkClassifier({ try Self.model(configuration, seed: $0) }, input: Self.input(seed: 1), labels: [0, 1, 2])
    }

    /// The in-model keypoint normalization builds into every family and keeps the output shape.
    @Test(arguments: registry.families, normalizedLayouts)
    func normalizedInputKeepsTheInterface(_ family: RegisteredModelFamily, layout: SkeletonLayout) throws {
        let model = try Self.model(Self.configuration(family, normalizeInput: true), seed: 3, layout: layout)
        let logits = model.forward(Self.input(seed: 4, layout: layout), training: false)
        #expect(logits.shape == [Self.batch, Self.classes])
        #expect(logits.values.allSatisfy { $0.isFinite })
    }

    /// Every family computes the stream it is configured with: the same seed gives the same
    /// state dictionary as the joint model (the stream has no tensors, so weights transfer) and
    /// different logits on the same windows.
    @Test(arguments: registry.families, derivedStreams)
    func streamIsComputedInsideTheModel(_ family: RegisteredModelFamily, stream: KeypointStream) throws {
        for layout in Self.normalizedLayouts {
            let joints = try Self.model(Self.configuration(family, normalizeInput: true), seed: 11, layout: layout)
            let streamed = try Self.model(Self.configuration(family, normalizeInput: true, stream: stream), seed: 11, layout: layout)
            #expect(joints.stateDictionary().map(\.name) == streamed.stateDictionary().map(\.name))
            #expect(joints.stateDictionary().map(\.tensor) == streamed.stateDictionary().map(\.tensor))
            let input = Self.input(seed: 12, layout: layout)
            let (a, b) = (joints.forward(input, training: false), streamed.forward(input, training: false))
            #expect(a.shape == b.shape && b.values.allSatisfy { $0.isFinite })
            #expect(a != b, "\(family.name) gives the joint model's logits for the \(stream.rawValue) stream on \(layout.name)")
        }
    }

    /// Analytical gradients of the input and of a sample of the first, a middle and the last
    /// parameter tensor against central differences, in evaluation mode; once on the joints and
    /// once on the bone-motion stream (bones and motion both in the backward pass).
    @Test(arguments: registry.families, [KeypointStream.joint, .boneMotion])
    func gradientsMatchFiniteDifferences(_ family: RegisteredModelFamily, stream: KeypointStream) throws {
        let model = try Self.model(Self.configuration(family, stream: stream), seed: 5)
        let input = Self.input(seed: 6)
        let parameters = model.parameters.count
        let checked = Array(Set([0, parameters / 2, parameters - 1])).sorted()
        let inputSample = stride(from: 0, to: input.count, by: max(1, input.count / 24)).map { $0 }
        checkGradients(
            of: model, input: input, training: false, parameterIndices: checked, inputIndices: inputSample,
            entriesPerParameter: 6, epsilon: 1e-3, relative: 2e-2, absolute: 3e-3)
    }

    /// The exported ONNX model (Create ML's interface: `poses [T, C, J]` → `labelProbabilities`)
    /// passes onnx's checker and gives onnxruntime's probabilities equal to ActionLab's within 1e-5.
    @Test(arguments: registry.families, normalizedLayouts)
    func onnxExportMatchesOnnxruntime(_ family: RegisteredModelFamily, layout: SkeletonLayout) throws {
        try expectONNXMatches(Self.model(Self.configuration(family, normalizeInput: true), seed: 7, layout: layout), family, layout)
    }

    /// The same with every derived stream: the exported graph computes bones and motion from raw keypoints.
    @Test(arguments: registry.families, derivedStreams)
    func onnxExportOfAStreamMatchesOnnxruntime(_ family: RegisteredModelFamily, stream: KeypointStream) throws {
        for layout in Self.normalizedLayouts {
            let configuration = Self.configuration(family, normalizeInput: true, stream: stream)
            try expectONNXMatches(Self.model(configuration, seed: 7, layout: layout), family, layout)
        }
    }

    /// The same on real windows: three UTD-MHAD Kinect v1 recordings of different actions and
    /// subjects (every fifth frame from the first, so each window spans 1.2 s of real motion in
    /// metres), through the in-model normalization, for every family.
    @Test(arguments: registry.families)
    func onnxExportMatchesOnnxruntimeOnRealSkeletons(_ family: RegisteredModelFamily) throws {
        let folder = try TestData.utdMHADSkeletonFolder()
        let importer = MATFileImporter(variable: "d_skel", axes: [.joint, .channel, .time])
        let layout = SkeletonLayout.kinectV1
        let (c, j, frames) = (layout.channelCount, layout.jointCount, Self.frames)
        var input = Tensor(zeros: [Self.batch, c * j, frames])
        for (n, name) in ["a1_s2_t1", "a12_s4_t2", "a27_s6_t3"].prefix(Self.batch).enumerated() {
            let url = folder.appendingPathComponent("\(name)_skeleton.mat")
            let sequence = try #require(try importer.importSequences(from: url, layout: layout, frameRate: 30, label: name).first?.sequence)
            try #require(sequence.frameCount >= 5 * (frames - 1) + 1, "\(name) has \(sequence.frameCount) frames")
            for t in 0..<frames {
                for feature in 0..<(c * j) {
                    input.values[(n * c * j + feature) * frames + t] = sequence.keypoints[5 * t * c * j + feature]
                }
            }
        }
        try expectONNXMatches(Self.model(Self.configuration(family, normalizeInput: true), seed: 7, layout: layout), family, layout, input: input)
    }

    /// Exports `model` and compares onnxruntime's probabilities with ActionLab's on `input`
    /// (`[batch, C·J, frames]`; by default ``input(seed:layout:)``, for a 3-D skeleton with an
    /// undetected hip and a padded frame).
    private func expectONNXMatches(
        _ model: any Classifier, _ family: RegisteredModelFamily, _ layout: SkeletonLayout, input given: Tensor? = nil
    ) throws {
        let exportable = try #require(model as? any ONNXExportable, "\(family.name) has no ONNX translation")
        let (channels, joints, frames) = (layout.channelCount, layout.jointCount, Self.frames)
        let window = KeypointWindowShape(windowSize: frames, channelCount: channels, jointCount: joints)
        let onnx = try ONNXClassifierExporter(producerVersion: "test").model(
            of: exportable, window: window, graphName: family.name, metadata: [("labels", "a,b,c")])

        var input = given ?? Self.input(seed: 8, layout: layout)
        if given == nil, layout.isSkeleton3D {
            // Window 1: the hip undetected in the first frame, the last frame padded.
            let (c, j) = (layout.channelCount, layout.jointCount)
            let hip = try #require(layout.joints.firstIndex(of: "hipCenter"))
            for channel in 0..<c { input.values[((c + channel) * j + hip) * frames] = 0 }
            for feature in 0..<(c * j) { input.values[(c * j + feature) * frames + frames - 1] = 0 }
        }
        let logits = model.forward(input, training: false)
        var expected: [Float] = []
        var windows: [Float] = []
        for n in 0..<Self.batch {
            let row = logits.values[(n * Self.classes)..<((n + 1) * Self.classes)]
            let top = row.max() ?? 0
            let exponentials = row.map { Foundation.exp(Double($0 - top)) }
            let total = exponentials.reduce(0, +)
            expected += exponentials.map { Float($0 / total) }
            // [C·J, T] with feature c·J + j → one window [T, C, J].
            for t in 0..<frames {
                for feature in 0..<(channels * joints) {
                    windows.append(input.values[(n * channels * joints + feature) * frames + t])
                }
            }
        }
        let scratch = try TemporaryDirectory(prefix: "model-family-onnx")
        try onnx.serializedData().write(to: scratch.file("model.onnx"))
        try littleEndianFloat32Data(windows).write(to: scratch.file("windows.f32"))
        guard try PythonOracle.requireModules(["numpy", "onnx", "onnxruntime"]) else { return }
        let result = try #require(try PythonOracle.json(
            """
            import json, sys
            import numpy as np, onnx, onnxruntime
            path, windows, n, t, c, j = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
            onnx.checker.check_model(onnx.load(path), full_check=True)
            session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
            data = np.fromfile(windows, dtype="<f4").reshape(n, t, c, j)
            print(json.dumps([session.run(None, {"poses": w})[0].tolist() for w in data]))
            """,
            arguments: [scratch.file("model.onnx").path, scratch.file("windows.f32").path, "\(Self.batch)", "\(frames)", "\(channels)", "\(joints)"])
            as? [[Double]])
        let actual = result.flatMap { $0 }
        #expect(actual.count == expected.count)
        let difference = zip(actual, expected).map { abs($0 - Double($1)) }.max() ?? .infinity
        #expect(difference <= 1e-5, "\(family.name): onnxruntime differs by \(difference)")
    }

    /// The families without a Core ML translation: their classifiers do not conform to
    /// `CoreMLExportable`, so `actionlab export` refuses them by name (`ExportError.unsupportedModel`).
    /// CTR-GCN's per-sample refined topology needs tanh, a temporal mean and a broadcast difference,
    /// which `scripts/check-coreml.py` does not interpret yet.
    static let familiesWithoutCoreML: Set<String> = ["ctrgcn", "ctrgcn-small"]

    /// The exported Core ML model has Create ML's interface (`poses [T, C, J]` → `labelProbabilities`,
    /// `label`), holds the state dictionary's tensors bit for bit, and its layers evaluated in NumPy
    /// (`scripts/check-coreml.py`) give onnxruntime's probabilities on the ONNX export within 1e-5.
    @Test(arguments: registry.families)
    func coreMLExportMatchesTheWeightsAndOnnxruntime(_ family: RegisteredModelFamily) throws {
        let model = try Self.model(Self.configuration(family), seed: 9)
        guard !Self.familiesWithoutCoreML.contains(family.name) else {
            #expect(!(model is any CoreMLExportable), "\(family.name) has a Core ML translation: check it here")
            return
        }
        let exportable = try #require(model as? any CoreMLExportable, "\(family.name) has no Core ML translation")
        let onnxExportable = try #require(model as? any ONNXExportable, "\(family.name) has no ONNX translation")
        let layout = Self.layout
        let window = KeypointWindowShape(windowSize: Self.frames, channelCount: layout.channelCount, jointCount: layout.jointCount)
        let labels = ["a", "b", "c"]
        let metadata: [(key: String, value: String)] = [
            ("labels", #"["a","b","c"]"#), ("frame_rate", "30"), ("window_size", "\(Self.frames)"), ("layout", layout.name),
            ("joints", "[" + layout.joints.map { "\"\($0)\"" }.joined(separator: ",") + "]"), ("trial", "trials/0001"), ("seed", "9"),
        ]
        let coreML = try CoreMLClassifierExporter(version: "test").model(of: exportable, window: window, labels: labels, metadata: metadata)
        let onnx = try ONNXClassifierExporter(producerVersion: "test").model(
            of: onnxExportable, window: window, graphName: family.name, metadata: [])
        let scratch = try TemporaryDirectory(prefix: "model-family-coreml")
        try coreML.serializedData().write(to: scratch.file("model.mlmodel"))
        try onnx.serializedData().write(to: scratch.file("model.onnx"))
        try Checkpoint(model: model.stateDictionary()).write(to: scratch.file("weights.h5"))
        let input = Self.input(seed: 10)
        let features = layout.channelCount * layout.jointCount
        var windows: [Float] = []
        for n in 0..<Self.batch {
            for t in 0..<Self.frames {
                for feature in 0..<features { windows.append(input.values[(n * features + feature) * Self.frames + t]) }
            }
        }
        try littleEndianFloat32Data(windows).write(to: scratch.file("windows.f32"))
        guard try PythonOracle.requireModules(["coremltools", "h5py", "numpy", "onnxruntime"]) else { return }
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-coreml.py"), encoding: .utf8)
        let summary = try #require(try PythonOracle.json(script, arguments: [
            scratch.url.path, scratch.file("windows.f32").path, "\(Self.batch)", "\(Self.frames)", "\(layout.channelCount)",
            "\(layout.jointCount)",
        ]) as? [String: Any])
        let difference = try #require(summary["max_abs_difference"] as? Double)
        #expect(difference <= 1e-5, "\(family.name): \(summary)")
        #expect(summary["tensors"] as? Int == model.stateDictionary().count)
        #expect(summary["labels"] as? [String] == labels)
    }

    /// A model with the in-model keypoint normalization or a derived stream is refused by name,
    /// never exported half.
    @Test(arguments: [(true, KeypointStream.joint), (false, .bone), (false, .jointMotion)])
    func coreMLExportNamesTheUntranslatedInputLayers(normalizeInput: Bool, stream: KeypointStream) throws {
        let family = try #require(Self.registry.family(named: "stgcn-small"))
        let model = try Self.model(Self.configuration(family, normalizeInput: normalizeInput, stream: stream), seed: 3)
        let exportable = try #require(model as? any CoreMLExportable)
        let window = KeypointWindowShape(windowSize: Self.frames, channelCount: 3, jointCount: 18)
        let expected = normalizeInput ? "keypointNormalization" : "inputStream"
        #expect {
            try CoreMLClassifierExporter(version: "test").model(of: exportable, window: window, labels: ["a", "b", "c"], metadata: [])
        } throws: { error in
            (error as? ModelExportError).map { "\($0)".contains(expected) } ?? false
        }
    }

    /// The memory estimate `validate` checks against physical memory counts the parameters of the
    /// model the family builds, within a factor of two (issue 15, item 7).
    @Test(arguments: registry.families)
    func memoryEstimateCountsTheParameters(_ family: RegisteredModelFamily) throws {
        let configuration = Self.configuration(family)
        let built = try Self.model(configuration, seed: 1).stateDictionary().reduce(0) { $0 + $1.tensor.count }
        let estimate = try #require(configuration.memoryEstimate(layout: Self.layout, windowSize: Self.frames, classCount: Self.classes))
        #expect(estimate.parameters >= built / 2 && estimate.parameters <= built * 2, "estimated \(estimate.parameters), built \(built)")
        #expect(estimate.activationsPerWindow >= Self.frames * Self.layout.channelCount * Self.layout.jointCount)
        #expect(estimate.trainingBytes(batchSize: Int.max) == nil)
    }

    /// A manifest naming the family reads into its configuration, and `resolved.json`'s form
    /// decodes back to the same configuration.
    @Test(arguments: registry.families)
    func manifestFormRoundTrips(_ family: RegisteredModelFamily) throws {
        let configuration = Self.configuration(family, dropout: 0.25)
        let encoder = JSONEncoder()
        let data = try encoder.encode(configuration)
        let decoder = JSONDecoder()
        if let key = ModelRegistry.userInfoKey { decoder.userInfo[key] = Self.registry }
        let decoded = try decoder.decode(ModelConfiguration.self, from: data)
        #expect(decoded == configuration)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"kind\":\"\(family.name)\""))
        for key in family.settingKeys { #expect(text.contains("\"\(key)\":"), "\(family.name) does not write \(key)") }
    }
}
