import Foundation
import Models
import NeuralNetwork
import Pose
import Randomness
import _BenchmarkSupport

/// `training-benchmark`: ActionLab's training rate, the Swift half of `scripts/bench-training`.
///
/// Trains a freshly initialized model of a registered family (`stgcn`, `stgcn-small`, `stgcnpp`,
/// `stgcnpp-small`, … with its default settings: Vision-18 graph, 3 channels, no dropout; built
/// through ``ModelRegistry`` as a manifest's `model.kind` builds it) with Adam (learning rate 0.001) on random windows `[B, 3·18, T]`
/// with random labels: each step is a training-mode forward pass, softmax cross-entropy, then the
/// trainer's own update (``applyGradient(_:to:parameters:optimizer:clippingNormAt:)``: zeroing the
/// gradients, the backward pass, an optimizer step and the finiteness check), the trainer's inner
/// loop without data loading. After `--warmup` untimed steps it times `--steps` steps and prints
/// `{"model", "threads", "batch", "frames", "steps", "seconds", "windowsPerSecond", "kernel"}` as
/// JSON. With `--layers R` (ST-GCN families only) the report also has `"layers"`: seconds per step
/// of each kind of layer, forward and backward, each layer timed alone (``LayerProfile``).
/// `--regions R` instead times R short parallel operations under each wait policy
/// (``RegionLatency``) and prints `{"threads", "regions"}`.
/// Exit status 1 on an error (printed to standard error), 2 for wrong usage.
let usage = """
    usage: training-benchmark --model KIND [--threads N] [--batch 32] [--frames 60]
                              [--classes 6] [--steps 5] [--warmup 1] [--layers R]
           training-benchmark --regions R [--threads 2]
    """

func run() throws -> Int32 {
    try asUsageError { try ComputeThreads.applyWaitPolicy(from: ProcessInfo.processInfo.environment) }
    let options = try benchmarkOptions(CommandLine.arguments.dropFirst())
    if options["regions"] != nil {
        let threads = try positiveInteger(options, "threads", default: 2)
        let report: [String: Any] = [
            "threads": threads, "regions": RegionLatency(threads: threads, repeats: try positiveInteger(options, "regions")).json,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
        return 0
    }
    guard let kind = options["model"], let family = ModelRegistry.builtIn.family(named: kind) else {
        throw BenchmarkUsageError(description: "--model must be one of " + ModelRegistry.builtIn.names.joined(separator: ", "))
    }
    let threads = try positiveInteger(options, "threads", default: 1)
    let batch = try positiveInteger(options, "batch", default: 32)
    let frames = try positiveInteger(options, "frames", default: 60)
    let classCount = try positiveInteger(options, "classes", default: 6)
    let steps = try positiveInteger(options, "steps", default: 5)
    let warmup = options["warmup"] == "0" ? 0 : try positiveInteger(options, "warmup", default: 1)
    ComputeThreads.count = threads

    let layout = SkeletonLayout.vision18
    var initialization = SeededGenerator(seed: 0, purpose: "initialization")
    let model = try ModelConfiguration(family).makeClassifier(
        layout: layout, windowSize: frames, classCount: classCount, using: &initialization)
    let optimizer = Adam(learningRate: 1e-3)
    var generator = SeededGenerator(seed: 0, purpose: "benchmark-data")
    let features = layout.channelCount * layout.jointCount
    let inputs = Tensor(shape: [batch, features, frames], values: (0..<(batch * features * frames)).map { _ in generator.nextUniform() })
    let labels = (0..<batch).map { _ in generator.nextIndex(below: classCount) }
    let parameters = model.parameters

    func step() {
        let logits = model.forward(inputs, training: true)
        let result = softmaxCrossEntropy(logits: logits, labels: labels)
        _ = applyGradient(result.gradient, to: model, parameters: parameters, optimizer: optimizer)
    }
    for _ in 0..<warmup { step() }
    let elapsed = ContinuousClock().measure {
        for _ in 0..<steps { step() }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    var report: [String: Any] = [
        "model": kind, "threads": threads, "batch": batch, "frames": frames, "steps": steps,
        "seconds": seconds, "windowsPerSecond": Double(steps * batch) / seconds, "kernel": BLAS.coreName,
    ]
    if options["layers"] != nil {
        guard let network = model as? SpatialTemporalGraphConvolutionalNetwork else {
            throw BenchmarkUsageError(description: "--layers profiles stgcn and stgcn-small, not \(kind)")
        }
        let repeats = try positiveInteger(options, "layers")
        report["layers"] = try LayerProfile(network: network, batch: batch, frames: frames, repeats: repeats).json
    }
    print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    return 0
}

do {
    exit(try run())
} catch let error as BenchmarkUsageError {
    FileHandle.standardError.write(Data("training-benchmark: \(error)\n\(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("training-benchmark: \(error)\n".utf8))
    exit(1)
}
