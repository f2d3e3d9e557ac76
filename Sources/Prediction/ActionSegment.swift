/// A stretch of time with one accepted action: consecutive (smoothed) predictions of one label.
public struct ActionSegment: Sendable, Equatable {
    /// The action.
    public var label: String
    /// Start, in seconds from the stream's first frame.
    public var start: Double
    /// End, in seconds; greater than `start`.
    public var end: Double
    /// The predictions the segment is made of, as a range of ``WindowPrediction/index``.
    public var predictions: ClosedRange<Int>
    /// Mean probability of `label` over those predictions, in [0, 1].
    public var meanConfidence: Double

    public init(label: String, start: Double, end: Double, predictions: ClosedRange<Int>, meanConfidence: Double) {
        self.label = label
        self.start = start
        self.end = end
        self.predictions = predictions
        self.meanConfidence = meanConfidence
    }

    /// Duration in seconds.
    public var duration: Double { end - start }
}
