import _BenchmarkSupport
import AtomicFiles
import Foundation
import ModelExport
import Models
import NeuralNetwork
import Pose
import Prediction
import Randomness

/// `prediction-benchmark`: ActionLab's classifier rate at batch 1, the Swift half of
/// `scripts/bench-predict`.
///
/// Times ``Predictor/probabilities(ofWindow:)`` — the call `actionlab predict` makes for every
/// window: `BatchAssembler` (`[T, C, J]` to `[1, C·J, T]`), the model's evaluation-mode forward
/// pass and the softmax — on one window after another, with `--threads` compute threads
/// (`ComputeThreads.count`). The model is either
/// - `--model stgcn|stgcn-small`: a freshly initialized network (seeded, `--seed`) for Vision-18
///   windows `[--frames, 3, 18]` and `--classes` classes, exported to `OUTPUT/model.onnx` with
///   ``ONNXClassifierExporter`` (Create ML's interface, as `actionlab export` writes it), or
/// - `--export DIR`: a trained model from `actionlab export` (or a trial folder), loaded as
///   `actionlab predict` loads it; its own `model.onnx` is the ONNX side.
///
/// The windows are `--windows` seeded random Vision-18 windows (x, y and confidence uniform in
/// [0, 1)), written to `OUTPUT/windows.f32` (float32 `[N, T, C, J]`, little-endian), and their
/// probabilities to `OUTPUT/probabilities.f32` (`[N, K]`), for the onnxruntime side to run and
/// compare. After `--warmup` seconds of untimed calls, each of `--repeats` repeats calls the
/// predictor for at least `--seconds` seconds, cycling through the windows. Prints
/// `{"model", "classes", "frames", "threads", "kernel", "windows", "repeats", "windowsPerSecond",
/// "onnx", "windowsFile", "probabilitiesFile"}` as JSON, `windowsPerSecond` the median of the
/// repeats' rates. Exit status 1 on an error (printed to standard error), 2 for wrong usage.
let usage = """
    usage: prediction-benchmark (--model stgcn|stgcn-small [--classes 27] [--frames 60] [--seed 0] | --export DIR)
                                --output DIR [--windows 32] [--threads 1] [--warmup 0.5] [--seconds 1] [--repeats 5]
    """

/// The predictor under test and where its ONNX twin is.
struct BenchmarkModel {
    var name: String
    var predictor: Predictor
    var onnx: URL
}

/// A fresh preset network for Vision-18 windows, its ONNX export written into `output`.
func freshModel(preset presetName: String, options: [String: String], output: URL) throws -> BenchmarkModel {
    guard let preset = SpatialTemporalGraphConvolutionalNetwork.Preset(rawValue: presetName) else {
        throw BenchmarkUsageError(description: "--model must be stgcn or stgcn-small")
    }
    let classCount = try positiveInteger(options, "classes", default: 27)
    let frames = try positiveInteger(options, "frames", default: 60)
    guard let seed = UInt64(options["seed"] ?? "0") else { throw BenchmarkUsageError(description: "--seed must be a whole number") }
    guard classCount >= 2 else { throw BenchmarkUsageError(description: "--classes must be at least 2") }
    let layout = SkeletonLayout.vision18
    var generator = SeededGenerator(seed: seed, purpose: "benchmark-model")
    let classifier = try ModelConfiguration.stgcn(preset)
        .makeClassifier(layout: layout, windowSize: frames, classCount: classCount, using: &generator)
    guard let exportable = classifier as? any ONNXExportable else {
        throw BenchmarkUsageError(description: "\(presetName) has no ONNX translation")
    }
    let window = KeypointWindowShape(windowSize: frames, channelCount: layout.channelCount, jointCount: layout.jointCount)
    let onnx = try ONNXClassifierExporter(producerVersion: "prediction-benchmark").model(
        of: exportable, window: window, graphName: presetName, metadata: [("model", presetName)])
    let onnxURL = output.appendingPathComponent("model.onnx")
    try AtomicFile.write(onnx.serializedData(), to: onnxURL)
    let predictor = try Predictor(
        model: classifier, labels: (0..<classCount).map { "class\($0)" }, windowSize: frames,
        channelCount: layout.channelCount, jointCount: layout.jointCount, timing: .sliding(frameRate: 30),
        settings: .createMLDefaults, treatsZeroJointsAsUndetected: layout.marksUndetectedJointsWithZeros)
    return BenchmarkModel(name: presetName, predictor: predictor, onnx: onnxURL)
}

/// A trained model as `actionlab predict` loads it, with the `model.onnx` beside it.
func trainedModel(folder path: String) throws -> BenchmarkModel {
    let folder = URL(fileURLWithPath: path, isDirectory: true)
    let model = try PredictionModel(folder: folder)
    let onnx = folder.appendingPathComponent("model.onnx")
    guard FileManager.default.fileExists(atPath: onnx.path) else {
        throw BenchmarkUsageError(description: "\(onnx.path) does not exist: --export needs a folder written by actionlab export")
    }
    return BenchmarkModel(
        name: "\(model.trained.configuration.model.kind) (\(path))", predictor: try model.makePredictor(settings: .createMLDefaults),
        onnx: onnx)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func positiveSeconds(_ options: [String: String], _ name: String, default defaultValue: Double) throws -> Double {
    guard let text = options[name] else { return defaultValue }
    guard let value = Double(text), value.isFinite, value >= 0 else {
        throw BenchmarkUsageError(description: "--\(name) must be a number of seconds, at least 0")
    }
    return value
}

func littleEndianBytes(_ values: [Float]) -> Data {
    var data = Data(capacity: values.count * 4)
    for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
}

func run() throws -> Int32 {
    try asUsageError { try ComputeThreads.applyWaitPolicy(from: ProcessInfo.processInfo.environment) }
    let options = try benchmarkOptions(CommandLine.arguments.dropFirst())
    guard let outputPath = options["output"] else { throw BenchmarkUsageError(description: "missing --output") }
    let output = URL(fileURLWithPath: outputPath, isDirectory: true)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let threads = try positiveInteger(options, "threads", default: 1)
    let windowCount = try positiveInteger(options, "windows", default: 32)
    let repeats = try positiveInteger(options, "repeats", default: 5)
    let warmup = try positiveSeconds(options, "warmup", default: 0.5)
    let minimumSeconds = try positiveSeconds(options, "seconds", default: 1)
    ComputeThreads.count = threads

    let benchmark: BenchmarkModel
    switch (options["model"], options["export"]) {
    case let (preset?, nil): benchmark = try freshModel(preset: preset, options: options, output: output)
    case let (nil, folder?): benchmark = try trainedModel(folder: folder)
    default: throw BenchmarkUsageError(description: "give either --model or --export")
    }
    let predictor = benchmark.predictor
    let perWindow = predictor.windowSize * predictor.channelCount * predictor.jointCount
    var generator = SeededGenerator(seed: 0, purpose: "benchmark-windows")
    let windows = (0..<windowCount).map { _ in (0..<perWindow).map { _ in generator.nextUniform() } }

    let probabilities = windows.flatMap { predictor.probabilities(ofWindow: $0) }
    let windowsURL = output.appendingPathComponent("windows.f32")
    let probabilitiesURL = output.appendingPathComponent("probabilities.f32")
    try AtomicFile.write(littleEndianBytes(windows.flatMap { $0 }), to: windowsURL)
    try AtomicFile.write(littleEndianBytes(probabilities), to: probabilitiesURL)

    let clock = ContinuousClock()
    var calls = 0
    /// Calls the predictor for at least `duration` seconds; returns the calls made and the seconds taken.
    func callRepeatedly(for duration: Double) -> (calls: Int, seconds: Double) {
        let start = clock.now
        var made = 0
        repeat {
            _ = predictor.probabilities(ofWindow: windows[calls % windows.count])
            calls += 1
            made += 1
        } while seconds(clock.now - start) < duration
        return (made, seconds(clock.now - start))
    }
    _ = callRepeatedly(for: warmup)
    let rates = (0..<repeats).map { _ in
        let timed = callRepeatedly(for: minimumSeconds)
        return Double(timed.calls) / timed.seconds
    }
    let sorted = rates.sorted()
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let report: [String: Any] = [
        "model": benchmark.name, "classes": predictor.labels.count, "frames": predictor.windowSize,
        "channels": predictor.channelCount, "joints": predictor.jointCount, "threads": threads, "kernel": BLAS.coreName,
        "windows": windowCount, "repeats": rates, "windowsPerSecond": median, "onnx": benchmark.onnx.path,
        "windowsFile": windowsURL.path, "probabilitiesFile": probabilitiesURL.path,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    return 0
}

do {
    exit(try run())
} catch let error as BenchmarkUsageError {
    FileHandle.standardError.write(Data("prediction-benchmark: \(error)\n\(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("prediction-benchmark: \(error)\n".utf8))
    exit(1)
}
