/// The runtime rules of a sliding-window classifier, with Create ML's defaults.
///
/// Apple's action-classifier sample app predicts every `stride` frames on the last window, and
/// the rehabilitation app described to us ignores results below 60 % confidence; Apple's
/// live-video sample reports "no person" when fewer than 60 % of a window's frames hold a pose.
public struct PredictionSettings: Sendable, Equatable {
    /// Frames (at the model's frame rate) between consecutive predictions; at least 1.
    /// Create ML's sample: 10 frames at 30 fps, a prediction every 0.33 s.
    public var stride: Int
    /// Below this top-class probability a prediction is ``WindowPrediction/Status/lowConfidence``; in [0, 1].
    public var confidenceThreshold: Float
    /// Below this share of frames with a pose a window is ``WindowPrediction/Status/noPerson``; in [0, 1].
    public var minimumPoseFraction: Double

    /// Create ML's sample values: stride 10, threshold 0.6, pose in at least 60 % of frames.
    public static let createMLDefaults = PredictionSettings(stride: 10, confidenceThreshold: 0.6, minimumPoseFraction: 0.6)

    public init(stride: Int, confidenceThreshold: Float, minimumPoseFraction: Double) {
        self.stride = stride
        self.confidenceThreshold = confidenceThreshold
        self.minimumPoseFraction = minimumPoseFraction
    }

    /// Checks the ranges, which do not depend on a model.
    ///
    /// - Throws: ``PredictionError/invalidSetting(name:value:expected:)`` for a stride below 1, or a
    ///   threshold or pose share outside [0, 1] (NaN included).
    public func check() throws {
        guard stride >= 1 else {
            throw PredictionError.invalidSetting(name: "stride", value: "\(stride)", expected: "a whole number of frames, at least 1")
        }
        guard (0...1).contains(confidenceThreshold) else {
            throw PredictionError.invalidSetting(name: "threshold", value: "\(confidenceThreshold)", expected: "a probability in [0, 1]")
        }
        guard (0...1).contains(minimumPoseFraction) else {
            throw PredictionError.invalidSetting(
                name: "minimum pose fraction", value: "\(minimumPoseFraction)", expected: "a share in [0, 1]")
        }
    }
}
