import Foundation

/// `actionlab predict --json`: one JSON object per prediction, one per line (JSON Lines), keys sorted.
///
/// Keys: `stream` (the stream's output folder name), `index`, `start_time` and `end_time`
/// (seconds), `start_frame`, `label`, `confidence`, `status` (`ok`, `lowConfidence`,
/// `noPerson`), `pose_fraction`, `padded_frames` and `probabilities` (label → probability).
public enum PredictionJSON {
    /// The lines of every prediction of `stream`.
    public static func lines(of stream: StreamPrediction, folder: String) -> [String] {
        stream.predictions.map { line(of: $0, labels: stream.labels, stream: folder) }
    }

    /// The line of one prediction; `latency` (seconds from frame arrival, live streams) is added when given.
    public static func line(of prediction: WindowPrediction, labels: [String], stream: String, latency: Double? = nil) -> String {
        var object: [String: Any] = [
            "stream": stream, "index": prediction.index, "start_time": prediction.startTime, "end_time": prediction.endTime,
            "start_frame": prediction.startFrame, "label": prediction.label, "confidence": Double(prediction.confidence),
            "status": prediction.status.rawValue, "pose_fraction": prediction.poseFraction, "padded_frames": prediction.paddedFrames,
            "probabilities": Dictionary(zip(labels, prediction.probabilities.map(Double.init)), uniquingKeysWith: { first, _ in first }),
        ]
        if let latency { object["latency"] = latency }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
