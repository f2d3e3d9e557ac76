import Pose

/// One stream's predictions turned into what a researcher reads: smoothed predictions, segments,
/// counts in two ways, and — with annotations — temporal segmentation scores with and without
/// smoothing.
///
/// The steps: the raw predictions' accepted labels (``WindowPrediction/acceptedLabel``: `ok`
/// predictions only) make the raw segments; the smoothed predictions (``MovingAverageSmoother``)
/// pass the ``HysteresisFilter`` and make the segments reported. ``EventCounter`` counts one
/// event per segment entry (Apple's "reliable trigger points"); ``PeriodicityCounter`` counts the
/// repetitions inside each segment from the periodicity of the pose itself. Scores compare frame
/// labels at the stream's frame rate with the annotations (``TemporalSegmentationMetrics``).
///
/// A segment that begins with the stream's first prediction starts at 0 s, and one that ends
/// with its last prediction ends at the stream's end: the first and last windows hold those
/// frames, and no other prediction speaks for them (``SegmentBuilder`` alone leaves the first and
/// last half window unlabelled).
public struct StreamAnalysis: Sendable {
    /// The stream and its raw predictions.
    public var stream: StreamPrediction
    /// The predictions after the moving average, with recomputed labels and statuses.
    public var smoothed: [WindowPrediction]
    /// The label each prediction stands for after smoothing and hysteresis (nil: no action).
    public var labels: [String?]
    /// Segments of the raw predictions' accepted labels (no smoothing, no hysteresis).
    public var rawSegments: [ActionSegment]
    /// Segments after smoothing and hysteresis: the ones reported, counted and drawn.
    public var segments: [ActionSegment]
    /// One event per segment entry, with the refractory time.
    public var events: EventCounts
    /// Repetitions inside each of ``segments`` from the pose's periodicity, in the same order.
    public var repetitions: [Repetitions]
    /// Scores of the raw segments and of the smoothed ones against the annotations; nil without annotations.
    public var evaluation: (raw: TemporalSegmentationScore, smoothed: TemporalSegmentationScore)?
    /// Frame labels of the annotations, `[T]` at the stream's frame rate; empty without annotations.
    public var groundTruthFrames: [String?]
    /// Frame labels of the raw and the smoothed segments, `[T]`.
    public var rawFrames: [String?], smoothedFrames: [String?]

    /// Analyses `stream`.
    ///
    /// - Parameters:
    ///   - stream: The raw predictions and the stream's poses.
    ///   - settings: The runtime rules the predictions were made with (stride, threshold).
    ///   - postprocessing: Smoothing, hysteresis and refractory time.
    ///   - layout: The model's skeleton layout (for periodicity counting).
    /// - Throws: ``PostprocessingError`` for an invalid smoothing window, hold count or refractory time.
    public init(
        stream: StreamPrediction, settings: PredictionSettings, postprocessing: PostprocessingSettings, layout: SkeletonLayout
    ) throws {
        self.stream = stream
        let builder = try SegmentBuilder(classLabels: stream.labels, frameRate: stream.frameRate, settings: settings)
        smoothed = try MovingAverageSmoother(window: postprocessing.smoothingWindow)
            .smoothed(stream.predictions, classLabels: stream.labels, settings: settings)
        labels = try HysteresisFilter(holdCount: postprocessing.holdCount).filtered(smoothed)
        rawSegments = Self.reachingStreamEnds(
            try builder.segments(of: stream.predictions, labels: stream.predictions.map(\.acceptedLabel)), stream: stream)
        segments = Self.reachingStreamEnds(try builder.segments(of: smoothed, labels: labels), stream: stream)
        events = try EventCounter(refractoryTime: postprocessing.refractoryTime).count(segments)
        let counter = try PeriodicityCounter()
        repetitions = try segments.map { try counter.repetitions(in: stream.poses, layout: layout, segment: $0) }
        let frameCount = stream.frameCount
        rawFrames = try FrameLabels.labels(of: rawSegments, frameCount: frameCount, frameRate: stream.frameRate)
        smoothedFrames = try FrameLabels.labels(of: segments, frameCount: frameCount, frameRate: stream.frameRate)
        if stream.input.isAnnotated {
            let intervals = stream.input.annotations.map { ($0.label, $0.start, $0.end ?? stream.duration) }
            groundTruthFrames = try FrameLabels.labels(ofIntervals: intervals, frameCount: frameCount, frameRate: stream.frameRate)
            let metrics = try TemporalSegmentationMetrics()
            evaluation = (
                try metrics.score(predicted: rawFrames, groundTruth: groundTruthFrames),
                try metrics.score(predicted: smoothedFrames, groundTruth: groundTruthFrames)
            )
        } else {
            groundTruthFrames = []
            evaluation = nil
        }
    }

    /// `segments` with the first reaching back to 0 s and the last to the stream's end, when they
    /// hold the stream's first and last predictions.
    static func reachingStreamEnds(_ segments: [ActionSegment], stream: StreamPrediction) -> [ActionSegment] {
        var segments = segments
        if let first = segments.first, first.predictions.lowerBound == stream.predictions.first?.index {
            segments[0].start = min(0, first.start)
        }
        if let last = segments.last, last.predictions.upperBound == stream.predictions.last?.index {
            segments[segments.count - 1].end = max(stream.duration, last.end)
        }
        return segments
    }
}
