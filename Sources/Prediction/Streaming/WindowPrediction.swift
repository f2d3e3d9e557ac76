/// One prediction of a sliding-window classifier: the class probabilities of one window of
/// pose frames, with the label, its confidence and whether it can be trusted.
///
/// The counterpart of what Apple's action-classifier sample app reads from the Core ML model
/// every `stride` frames: `label` and `labelProbabilities`, plus the window's time range and a
/// status that applies Create ML's runtime rules (a confidence threshold; "no person" when too
/// few of the window's frames hold a pose).
public struct WindowPrediction: Sendable, Equatable {
    /// Whether a prediction can drive feedback.
    public enum Status: String, Sendable, CaseIterable, Codable {
        /// The window holds a person and the top class reaches the threshold.
        case ok
        /// The top class's probability is below the confidence threshold.
        case lowConfidence
        /// Fewer than the minimum share of the window's frames hold a pose (a frame with no
        /// person is all zeros, as Vision pads); the probabilities are still given.
        case noPerson
    }

    /// The prediction's number in its stream, from 0.
    public var index: Int
    /// The window's first frame, at the model's frame rate, counted from the stream's first frame.
    public var startFrame: Int
    /// Time of the window's first frame, in seconds from the stream's first frame.
    public var startTime: Double
    /// Time just after the window's last frame (last frame's time + 1 / frame rate), in seconds.
    public var endTime: Double
    /// Class probabilities `[K]`, in the model's label order; they sum to 1.
    public var probabilities: [Float]
    /// Index of the most probable class, into the model's labels (the first on ties).
    public var labelIndex: Int
    /// The most probable class's name.
    public var label: String
    /// Its probability, in [0, 1].
    public var confidence: Float
    /// Whether the prediction can be trusted (threshold and person rules).
    public var status: Status
    /// Share of the window's frames from the stream (padding excluded) that hold a pose, in [0, 1].
    public var poseFraction: Double
    /// Frames of the window past the stream's end, filled with zeros as in training (a stream
    /// shorter than one window); 0 for every full window.
    public var paddedFrames: Int

    public init(
        index: Int, startFrame: Int, startTime: Double, endTime: Double, probabilities: [Float], labelIndex: Int, label: String,
        confidence: Float, status: Status, poseFraction: Double, paddedFrames: Int
    ) {
        self.index = index
        self.startFrame = startFrame
        self.startTime = startTime
        self.endTime = endTime
        self.probabilities = probabilities
        self.labelIndex = labelIndex
        self.label = label
        self.confidence = confidence
        self.status = status
        self.poseFraction = poseFraction
        self.paddedFrames = paddedFrames
    }

    /// The middle of the window, in seconds: the time a prediction is drawn at and scored for.
    public var centreTime: Double { (startTime + endTime) / 2 }

    /// The label when the prediction is ``Status/ok``, else nil (no action is reported).
    public var acceptedLabel: String? { status == .ok ? label : nil }
}
