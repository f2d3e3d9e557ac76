/// Turns a stream's labelled predictions into action segments on the stream's timeline.
///
/// The time rule: prediction `k` stands for the interval `[c_k − h, c_k + h)` around its
/// window's centre `c_k` (``WindowPrediction/centreTime``), where `h = stride / frameRate / 2`
/// seconds is half the spacing between predictions. Consecutive predictions therefore tile the
/// timeline, and a segment of predictions `k ... l` runs from `c_k − h` to `c_l + h`. Between two
/// consecutive predictions the shared boundary is computed once, as the midpoint of their
/// centres (equal to `c_k + h` for equally spaced predictions), so adjacent segments meet
/// exactly, with no gap or overlap from rounding. The stream's first half window (before the
/// first centre minus h) and its last are covered by no prediction.
///
/// A segment is a maximal run of predictions with one non-nil label and consecutive
/// ``WindowPrediction/index`` values: a nil label (no accepted action) or a missing index ends it.
public struct SegmentBuilder: Sendable, Equatable {
    /// The model's class names, in the order of the predictions' probabilities.
    public let classLabels: [String]
    /// The model's frame rate, in frames per second.
    public let frameRate: Double
    /// Frames (at ``frameRate``) between consecutive predictions.
    public let stride: Int

    /// Creates a builder for predictions made every `stride` frames at `frameRate`.
    /// - Parameters:
    ///   - classLabels: The model's class names, in the order of the probabilities.
    ///   - frameRate: The model's frame rate, in frames per second; positive.
    ///   - stride: Frames between predictions; at least 1.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` for a frame rate
    ///   that is not positive or a stride below 1.
    public init(classLabels: [String], frameRate: Double, stride: Int) throws(PostprocessingError) {
        guard frameRate.isFinite, frameRate > 0 else {
            throw .invalidParameter(name: "frame rate", value: "\(frameRate)", reason: "must be a positive number of frames per second")
        }
        guard stride >= 1 else { throw .invalidParameter(name: "stride", value: "\(stride)", reason: "must be at least 1 frame") }
        self.classLabels = classLabels
        self.frameRate = frameRate
        self.stride = stride
    }

    /// Creates a builder with the stride of `settings`.
    /// - Throws: As ``init(classLabels:frameRate:stride:)``.
    public init(classLabels: [String], frameRate: Double, settings: PredictionSettings) throws(PostprocessingError) {
        try self.init(classLabels: classLabels, frameRate: frameRate, stride: settings.stride)
    }

    /// Half the spacing between predictions, `h = stride / frameRate / 2`, in seconds.
    public var halfSpacing: Double { Double(stride) / frameRate / 2 }

    /// The interval each prediction stands for, in seconds from the stream's first frame.
    /// - Parameter predictions: One stream's predictions in time order.
    /// - Returns: One half-open interval `[start, end)` per prediction, `[c_k − h, c_k + h)`,
    ///   with shared boundaries between consecutive predictions (see the type's discussion).
    public func intervals(of predictions: [WindowPrediction]) -> [(start: Double, end: Double)] {
        predictions.indices.map { position in
            let centre = predictions[position].centreTime
            var start = centre - halfSpacing
            var end = centre + halfSpacing
            if position > predictions.startIndex, predictions[position - 1].index + 1 == predictions[position].index {
                start = (predictions[position - 1].centreTime + centre) / 2
            }
            if position + 1 < predictions.endIndex, predictions[position].index + 1 == predictions[position + 1].index {
                end = (centre + predictions[position + 1].centreTime) / 2
            }
            return (start, max(start, end))
        }
    }

    /// The segments of `predictions` under `labels`.
    ///
    /// - Parameters:
    ///   - predictions: One stream's predictions in time order.
    ///   - labels: One label per prediction (for example ``HysteresisFilter``'s output); nil = no action.
    /// - Returns: The segments in time order; each one's ``ActionSegment/meanConfidence`` is the
    ///   mean probability of its label over its predictions.
    /// - Throws: ``PostprocessingError/lengthMismatch(what:expected:found:)`` when there is not one
    ///   label per prediction; ``PostprocessingError/unknownLabel(_:known:)`` for a label that is
    ///   not in ``classLabels``; ``PostprocessingError/probabilityCountMismatch(predictionIndex:expected:found:)``
    ///   when a prediction of a segment lacks that label's probability.
    public func segments(of predictions: [WindowPrediction], labels: [String?]) throws(PostprocessingError) -> [ActionSegment] {
        guard labels.count == predictions.count else {
            throw .lengthMismatch(what: "labels for the predictions", expected: predictions.count, found: labels.count)
        }
        let intervals = intervals(of: predictions)
        var segments: [ActionSegment] = []
        var runStart = 0
        while runStart < predictions.count {
            var runEnd = runStart + 1
            while runEnd < predictions.count, labels[runEnd] == labels[runStart],
                predictions[runEnd - 1].index + 1 == predictions[runEnd].index
            {
                runEnd += 1
            }
            if let label = labels[runStart] {
                guard let classIndex = classLabels.firstIndex(of: label) else { throw .unknownLabel(label, known: classLabels) }
                var sum = 0.0
                for prediction in predictions[runStart..<runEnd] {
                    guard classIndex < prediction.probabilities.count else {
                        throw .probabilityCountMismatch(
                            predictionIndex: prediction.index, expected: classLabels.count, found: prediction.probabilities.count)
                    }
                    sum += Double(prediction.probabilities[classIndex])
                }
                segments.append(
                    ActionSegment(
                        label: label, start: intervals[runStart].start, end: intervals[runEnd - 1].end,
                        predictions: predictions[runStart].index...predictions[runEnd - 1].index,
                        meanConfidence: sum / Double(runEnd - runStart)))
            }
            runStart = runEnd
        }
        return segments
    }

    /// The segments of `predictions` under their accepted labels (``WindowPrediction/acceptedLabel``).
    /// - Throws: As ``segments(of:labels:)``.
    public func segments(of predictions: [WindowPrediction]) throws(PostprocessingError) -> [ActionSegment] {
        try segments(of: predictions, labels: predictions.map(\.acceptedLabel))
    }

    /// One label per frame for frames `0..<frameCount` at `frameRate`, from `predictions` under `labels`.
    ///
    /// Frame `n` (at `n / frameRate` seconds) takes the label of the prediction whose interval
    /// holds it (see the type's discussion), nil when none does or its label is nil: the
    /// frame-wise input of ``TemporalSegmentationMetrics``.
    /// - Parameters:
    ///   - predictions: One stream's predictions in time order.
    ///   - labels: One label per prediction; nil = no action.
    ///   - frameCount: N, the number of frames to label.
    ///   - frameRate: The frames' rate, in frames per second (the annotations' or video's rate; it
    ///     need not be the model's).
    /// - Returns: `[N]` labels.
    /// - Throws: As ``segments(of:labels:)``, and ``PostprocessingError/invalidParameter(name:value:reason:)``
    ///   for a negative frame count or a frame rate that is not positive.
    public func frameLabels(of predictions: [WindowPrediction], labels: [String?], frameCount: Int, frameRate: Double)
        throws(PostprocessingError) -> [String?]
    {
        try FrameLabels.labels(of: segments(of: predictions, labels: labels), frameCount: frameCount, frameRate: frameRate)
    }
}
