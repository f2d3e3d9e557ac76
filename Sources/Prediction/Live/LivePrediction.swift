import Foundation
import Pose
import Video

/// Predicts on a live video stream in real time: FFmpeg reads the stream on its own thread
/// (``LiveVideoSource``), MediaPipe estimates the pose of the newest frame, and the
/// ``Predictor`` classifies every `stride` frames.
///
/// When pose estimation falls behind the stream, the frames that arrived meanwhile are dropped
/// and the newest is processed, as the rehabilitation app described to us does, so feedback
/// stays current; the frames are resampled on their timestamps to the model's frame rate, so
/// dropped frames are interpolated over like any gap. ``Statistics`` reports frames processed and
/// dropped, and the latency from a frame's arrival to the prediction it completed.
public struct LivePrediction {
    /// What a live run did.
    public struct Statistics: Sendable, Equatable {
        /// Frames FFmpeg decoded, frames pose estimation processed, and frames dropped unseen.
        public var framesDecoded: Int, framesProcessed: Int, framesDropped: Int
        /// Predictions made.
        public var predictions: Int
        /// Why the stream ended when it did not end normally: the stall error's text.
        public var ending: String?
        /// Seconds from the arrival of the frame that completed a prediction's window to the
        /// prediction, one per prediction, in order.
        public var latencies: [Double]

        /// The `q`-quantile of the latencies (nearest rank), in seconds; nil without predictions.
        public func latency(quantile q: Double) -> Double? {
            guard !latencies.isEmpty else { return nil }
            let sorted = latencies.sorted()
            let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
            return sorted[rank]
        }
    }

    /// The model (trained on Vision-18 body pose).
    public var model: PredictionModel
    /// Stride, threshold and the no-person rule.
    public var settings: PredictionSettings
    /// The pose landmarker's settings (running mode is always video).
    public var poseOptions: MediaPipePoseEstimator.Options
    /// How the stream is opened (input format, timeouts, queue capacity).
    public var sourceOptions: LiveSourceOptions
    /// For a model trained with uniform sampling, the seconds one window covers
    /// (``PredictionModel/timing(windowDuration:)``); nil for a sliding-window model.
    public var windowDuration: Double?
    /// Extra seconds spent on each frame after pose estimation: 0 in use; tests set it to make
    /// pose estimation deliberately slower than the frame rate.
    public var addedFrameCost: Double

    public init(
        model: PredictionModel, settings: PredictionSettings, windowDuration: Double? = nil,
        poseOptions: MediaPipePoseEstimator.Options = .init(), sourceOptions: LiveSourceOptions = LiveSourceOptions(),
        addedFrameCost: Double = 0
    ) {
        self.model = model
        self.settings = settings
        self.windowDuration = windowDuration
        var options = poseOptions
        options.runningMode = .video
        self.poseOptions = options
        self.sourceOptions = sourceOptions
        self.addedFrameCost = addedFrameCost
    }

    /// Reads `url` until the stream ends, calling `onPrediction` with each prediction and its latency in seconds.
    ///
    /// - Parameters:
    ///   - url: Anything FFmpeg opens: `udp://…`, `rtp://…`, `http://…`, a named pipe, `/dev/video0`.
    ///   - onPrediction: Called on the calling thread as predictions are made.
    /// - Returns: The run's statistics. A stream that stalls (UDP has no end) ends the run like
    ///   an ended stream, with ``Statistics/ending`` saying so.
    /// - Throws: ``PredictionError/layoutMismatch(model:modelLayout:input:inputLayout:)`` for a
    ///   model not trained on Vision-18 pose; `VideoError` when the stream cannot be opened or
    ///   fails; `PoseEstimationError` from MediaPipe.
    public func run(url: String, onPrediction: (WindowPrediction, Double) -> Void) throws -> Statistics {
        guard model.layout.name == SkeletonLayout.vision18.name else {
            throw PredictionError.layoutMismatch(
                model: model.origin, modelLayout: model.layout.name, input: url, inputLayout: SkeletonLayout.vision18.name)
        }
        var predictor = try model.makePredictor(settings: settings, windowDuration: windowDuration)
        let estimator = try MediaPipePoseEstimator(options: poseOptions)
        defer { try? estimator.close() }
        let source = LiveVideoSource(url: url, options: sourceOptions)
        defer { source.close() }
        var statistics = Statistics(framesDecoded: 0, framesProcessed: 0, framesDropped: 0, predictions: 0, ending: nil, latencies: [])
        func update() {
            let counts = source.statistics
            statistics.framesDecoded = counts.framesDecoded
            statistics.framesDropped = counts.framesDropped
        }
        while true {
            let next: LiveFrame?
            do {
                next = try source.next()
            } catch {
                guard Self.isStall(error), statistics.framesProcessed > 0 else { throw error }
                statistics.ending = "\(error)"
                next = nil
            }
            guard let frame = next else { break }
            let image = try RGBImage(width: frame.frame.width, height: frame.frame.height, pixels: frame.frame.pixels)
            let people = try estimator.estimatePeople(in: image, at: frame.timestamp)
            if addedFrameCost > 0 { Thread.sleep(forTimeInterval: addedFrameCost) }
            let keypoints = people.isEmpty ? nil : DetectedPerson.frameValues(ofMostProminentAmong: people)
            statistics.framesProcessed += 1
            for prediction in try predictor.append(timestamp: frame.timestamp, keypoints: keypoints) {
                let latency = frame.age()
                statistics.predictions += 1
                statistics.latencies.append(latency)
                onPrediction(prediction, latency)
            }
            update()
        }
        for prediction in predictor.finish() {
            statistics.predictions += 1
            onPrediction(prediction, 0)
        }
        update()
        return statistics
    }

    private static func isStall(_ error: VideoError) -> Bool {
        if case .streamStalled = error.kind { return true }
        return false
    }
}
