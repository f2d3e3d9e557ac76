import NeuralNetwork
import Pose
import Training

/// Classifies a stream of pose frames with a sliding window, one frame at a time: the
/// counterpart of the `Predictor` in Apple's action-classifier sample app.
///
/// Fed one frame at a time (a timestamp and the person's keypoints, or nothing when no person
/// was found, which becomes an all-zero frame as Vision pads), it resamples the frames on their
/// timestamps to the model's frame rate (``PoseFrameResampler``, the streaming form of training's
/// resampling), keeps the last window, and classifies it every `stride` frames once the first
/// window is full. The windows are training's sliding windows — the one starting at frame 0,
/// then every `stride` frames — with the same values, so a window the trainer saw gets the
/// same probabilities, bit for bit (the model's own input normalization runs inside the model).
/// A stream that ends before its first window is full gets one window zero-padded at the end,
/// as training pads a short recording (``WindowPrediction/paddedFrames`` says how many).
///
/// Models trained with uniform sampling (one whole recording resampled to `T` frames) are run
/// on windows of ``Timing/uniform(frameRate:framesPerWindow:)``: the last `framesPerWindow`
/// frames at `frameRate`, resampled to `T` frames as training resampled each recording.
///
/// Each prediction's status applies Create ML's runtime rules (``PredictionSettings``).
public struct Predictor {
    /// How stream frames become model windows.
    public enum Timing: Sendable, Equatable {
        /// Windows of `T` consecutive frames at the model's frame rate (sliding-window training).
        case sliding(frameRate: Double)
        /// The last `framesPerWindow` frames at `frameRate`, resampled to `T` frames (uniform-sampling training).
        case uniform(frameRate: Double, framesPerWindow: Int)

        /// The rate stream frames are resampled to, frames per second.
        public var frameRate: Double {
            switch self {
            case let .sliding(rate), let .uniform(rate, _): rate
            }
        }
    }

    /// The classifier, in evaluation mode.
    public let model: any Classifier
    /// Class names in the model's output order.
    public let labels: [String]
    /// Frames per model window, `T`.
    public let windowSize: Int
    /// Channels `C` and joints `J` of a frame.
    public let channelCount: Int, jointCount: Int
    /// How stream frames become windows.
    public let timing: Timing
    /// Stride, threshold and the no-person rule.
    public let settings: PredictionSettings
    /// Whether an all-zero frame means "no person" (body-pose layouts) rather than a reading (sensors).
    public let treatsZeroJointsAsUndetected: Bool

    private var resampler: PoseFrameResampler
    /// The last ``framesPerWindow`` frames at the stream rate, `[F, C, J]` flattened.
    private var recent: [Float] = []
    /// Whether each of those frames holds a pose.
    private var recentHasPose: [Bool] = []
    /// Frames taken so far, at the stream rate.
    private var frameCount = 0
    private var predictionCount = 0
    private var inputCount = 0

    /// Creates a predictor.
    ///
    /// - Parameters:
    ///   - model: A trained classifier taking `[N, C * J, T]` windows.
    ///   - labels: Its class names, one per output.
    ///   - windowSize: `T`, the frames of one model window.
    ///   - channelCount: `C`. - jointCount: `J`.
    ///   - timing: How frames become windows (the model's training windows).
    ///   - settings: Stride (in frames at the stream rate), threshold, minimum share of frames with a pose.
    ///   - treatsZeroJointsAsUndetected: `SkeletonLayout.marksUndetectedJointsWithZeros` of the model's layout.
    /// - Throws: ``PredictionError/invalidSetting(name:value:expected:)`` for a stride below 1, a
    ///   threshold or pose share outside [0, 1], a non-positive frame rate or window;
    ///   ``PredictionError/labelCountMismatch(labels:outputs:)``.
    public init(
        model: any Classifier, labels: [String], windowSize: Int, channelCount: Int, jointCount: Int, timing: Timing,
        settings: PredictionSettings, treatsZeroJointsAsUndetected: Bool = true
    ) throws {
        try settings.check()
        guard timing.frameRate > 0, timing.frameRate.isFinite else {
            throw PredictionError.invalidSetting(name: "frame rate", value: "\(timing.frameRate)", expected: "a positive number of frames per second")
        }
        guard windowSize >= 1 else {
            throw PredictionError.invalidSetting(name: "window size", value: "\(windowSize)", expected: "at least 1 frame")
        }
        if case let .uniform(_, frames) = timing, frames < 1 {
            throw PredictionError.invalidSetting(name: "frames per window", value: "\(frames)", expected: "at least 1 frame")
        }
        guard labels.count == model.classCount else {
            throw PredictionError.labelCountMismatch(labels: labels.count, outputs: model.classCount)
        }
        self.model = model
        self.labels = labels
        self.windowSize = windowSize
        self.channelCount = channelCount
        self.jointCount = jointCount
        self.timing = timing
        self.settings = settings
        self.treatsZeroJointsAsUndetected = treatsZeroJointsAsUndetected
        resampler = PoseFrameResampler(
            frameRate: timing.frameRate, channelCount: channelCount, jointCount: jointCount,
            treatingZeroJointsAsUndetected: treatsZeroJointsAsUndetected)
    }

    /// Stream frames (at the stream rate) one window spans: `T`, or the uniform window's frame count.
    public var framesPerWindow: Int {
        switch timing {
        case .sliding: windowSize
        case let .uniform(_, frames): frames
        }
    }

    /// Frames taken so far, resampled to the stream rate.
    public var resampledFrameCount: Int { frameCount }

    /// Takes the next frame of the stream.
    ///
    /// - Parameters:
    ///   - timestamp: Seconds; after the previous frame's.
    ///   - keypoints: `[C, J]` values of the person, or nil when no person was found (an all-zero frame).
    /// - Returns: The predictions that became due, in time order (usually none or one).
    /// - Throws: ``PredictionError/invalidFrame(input:frame:reason:)`` for a frame of the wrong
    ///   size, a time that does not increase or a non-finite value; the predictor is unchanged.
    public mutating func append(timestamp: Double, keypoints: [Float]?) throws -> [WindowPrediction] {
        let values = keypoints ?? [Float](repeating: 0, count: channelCount * jointCount)
        let frames: [PoseFrameResampler.Frame]
        do {
            frames = try resampler.append(timestamp: timestamp, keypoints: values)
        } catch {
            throw PredictionError.invalidFrame(input: "stream", frame: inputCount, reason: "\(error)")
        }
        inputCount += 1
        var predictions: [WindowPrediction] = []
        for frame in frames { if let prediction = take(frame) { predictions.append(prediction) } }
        return predictions
    }

    /// Ends the stream: the predictions still due, and — when the stream was shorter than one
    /// window — the one zero-padded (or, for uniform timing, resampled) window training would cut.
    public mutating func finish() -> [WindowPrediction] {
        var predictions: [WindowPrediction] = []
        for frame in resampler.finish() { if let prediction = take(frame) { predictions.append(prediction) } }
        if predictionCount == 0, frameCount > 0 {
            predictions.append(predict(paddedFrames: framesPerWindow - recentHasPose.count))
        }
        return predictions
    }

    /// Class probabilities `[K]` of one model window `[T, C, J]` (flattened), in the model's label order.
    ///
    /// - Precondition: `window.count == T * C * J`.
    public func probabilities(ofWindow window: [Float]) -> [Float] {
        let input = BatchAssembler.inputs(
            windowValues: window, windowSize: windowSize, channelCount: channelCount, jointCount: jointCount)
        // The inference path, as the trial's evaluation (``Evaluator``) runs it.
        return softmax(model.infer(input)).values
    }

    /// Adds one frame at the stream rate and predicts if a window is due.
    private mutating func take(_ frame: PoseFrameResampler.Frame) -> WindowPrediction? {
        let perFrame = channelCount * jointCount
        recent.append(contentsOf: frame.keypoints)
        recentHasPose.append(!treatsZeroJointsAsUndetected || frame.keypoints.contains { $0 != 0 })
        if recentHasPose.count > framesPerWindow {
            recent.removeFirst(perFrame)
            recentHasPose.removeFirst()
        }
        frameCount += 1
        guard frameCount >= framesPerWindow, (frameCount - framesPerWindow) % settings.stride == 0 else { return nil }
        return predict(paddedFrames: 0)
    }

    /// The prediction for the frames held, zero-padded at the end by `paddedFrames` frames.
    private mutating func predict(paddedFrames: Int) -> WindowPrediction {
        let perFrame = channelCount * jointCount
        let heldFrames = recentHasPose.count
        var window = recent
        switch timing {
        case .sliding:
            window.append(contentsOf: repeatElement(0, count: paddedFrames * perFrame))
        case let .uniform(rate, _):
            let sequence = PoseSequence(
                keypoints: recent, timestamps: PoseSequence.uniformTimestamps(frameCount: heldFrames, frameRate: rate),
                channelCount: channelCount, jointCount: jointCount, frameRate: rate)
            window = sequence.resampled(toFrameCount: windowSize, treatingZeroJointsAsUndetected: treatsZeroJointsAsUndetected).keypoints
        }
        let probabilities = probabilities(ofWindow: window)
        var best = 0
        for (index, value) in probabilities.enumerated() where value > probabilities[best] { best = index }
        let startFrame = frameCount - heldFrames
        let rate = timing.frameRate
        let windowFrames = timing == .sliding(frameRate: rate) ? heldFrames + paddedFrames : heldFrames
        // Over the stream's own frames: padding past a short stream's end is missing time, not a missing person.
        let poseFraction = Double(recentHasPose.filter { $0 }.count) / Double(max(1, heldFrames))
        let status: WindowPrediction.Status =
            poseFraction < settings.minimumPoseFraction ? .noPerson
            : probabilities[best] < settings.confidenceThreshold ? .lowConfidence : .ok
        defer { predictionCount += 1 }
        return WindowPrediction(
            index: predictionCount, startFrame: startFrame, startTime: Double(startFrame) / rate,
            endTime: Double(startFrame + windowFrames) / rate, probabilities: probabilities, labelIndex: best, label: labels[best],
            confidence: probabilities[best], status: status, poseFraction: poseFraction,
            paddedFrames: timing == .sliding(frameRate: rate) ? paddedFrames : 0)
    }
}
