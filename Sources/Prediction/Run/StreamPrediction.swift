import Pose

/// Everything predicted for one stream (one recording of one input): the raw and smoothed
/// predictions, the segments and counts made from them, and — with annotations — their scores.
public struct StreamPrediction: Sendable {
    /// The input the stream came from.
    public var input: PredictionInput
    /// A name for the stream, unique among a run's streams: the file's name (with `#k` for the
    /// k-th recording of a file holding several).
    public var name: String
    /// The model's class names, in output order.
    public var labels: [String]
    /// The rate the stream was resampled to, frames per second.
    public var frameRate: Double
    /// Frames of the stream at that rate.
    public var frameCount: Int
    /// The model's predictions, every `stride` frames, in time order.
    public var predictions: [WindowPrediction]
    /// The stream's poses at `frameRate` (`[T, C, J]`), for periodicity counting.
    public var poses: PoseSequence
    /// Things a reader should know (a stream shorter than a window was padded, …).
    public var notes: [String]

    public init(
        input: PredictionInput, name: String, labels: [String], frameRate: Double, frameCount: Int,
        predictions: [WindowPrediction], poses: PoseSequence, notes: [String]
    ) {
        self.input = input
        self.name = name
        self.labels = labels
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.predictions = predictions
        self.poses = poses
        self.notes = notes
    }

    /// The stream's duration in seconds: frames divided by the frame rate.
    public var duration: Double { Double(frameCount) / frameRate }
}
