import Foundation

@testable import Prediction

/// Small deterministic inputs for the post-processing tests: prediction streams and a seeded generator.
enum PostprocessingFixtures {
    /// A prediction made every `stride` frames at `frameRate` over windows of `windowFrames`,
    /// with `probabilities` and the label, confidence and status they imply.
    static func prediction(
        index: Int, probabilities: [Float], classLabels: [String], status: WindowPrediction.Status? = nil, threshold: Float = 0.6,
        stride: Int = 10, frameRate: Double = 30, windowFrames: Int = 60
    ) -> WindowPrediction {
        var best = 0
        for label in probabilities.indices where probabilities[label] > probabilities[best] { best = label }
        let startFrame = index * stride
        return WindowPrediction(
            index: index, startFrame: startFrame, startTime: Double(startFrame) / frameRate,
            endTime: Double(startFrame + windowFrames) / frameRate, probabilities: probabilities, labelIndex: best,
            label: classLabels[best], confidence: probabilities[best],
            status: status ?? (probabilities[best] >= threshold ? .ok : .lowConfidence), poseFraction: 1, paddedFrames: 0)
    }

    /// A stream of predictions, one per probability vector.
    static func stream(_ probabilities: [[Float]], classLabels: [String], threshold: Float = 0.6) -> [WindowPrediction] {
        probabilities.enumerated().map { prediction(index: $0.offset, probabilities: $0.element, classLabels: classLabels, threshold: threshold) }
    }

    /// Settings with stride 10 and `threshold`.
    static func settings(threshold: Float = 0.6) -> PredictionSettings {
        PredictionSettings(stride: 10, confidenceThreshold: threshold, minimumPoseFraction: 0.6)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014), for reproducible test data.
struct TestGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal value (Box–Muller).
    mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// A probability vector over `count` classes.
    mutating func probabilities(count: Int) -> [Float] {
        let raw = (0..<count).map { _ in Float.random(in: 0.01..<1, using: &self) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }
}
