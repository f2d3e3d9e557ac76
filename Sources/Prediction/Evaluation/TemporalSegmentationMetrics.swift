/// Scores frame-wise action labels against annotations as temporal action segmentation papers
/// do: frame-wise accuracy, segmental F1 at IoU 0.10, 0.25 and 0.50, and the edit score.
///
/// The definitions are those of MS-TCN's evaluation (`eval.py`; Farha and Gall, "MS-TCN:
/// Multi-Stage Temporal Convolutional Network for Action Segmentation", CVPR 2019), which takes
/// the segmental metrics from Lea et al., "Temporal Convolutional Networks for Action
/// Segmentation and Detection", CVPR 2017:
/// - segments are the maximal runs of one label in the frame-wise labels; background runs are
///   not segments (MS-TCN's `bg_class`);
/// - frame-wise accuracy counts every frame, background included, pooled over streams;
/// - the edit score is computed per stream and averaged (see ``TemporalSegmentationScore/editScore``);
/// - F1 pools true and false positives and false negatives over streams (see ``SegmentalF1``).
///
/// Background is nil and every label in ``backgroundLabels``; all of them are one background,
/// so a frame labelled nil in one labelling and `none` in the other is a correct frame. Where
/// MS-TCN divides 0 by 0 (the edit score of a stream with no segment in either labelling) the
/// score here is 100; F1 with no true positive is 0, as MS-TCN's `nan_to_num` makes it.
public struct TemporalSegmentationMetrics: Sendable, Equatable {
    /// The IoU thresholds of MS-TCN's tables: 0.10, 0.25, 0.50.
    public static let standardOverlaps: [Double] = [0.10, 0.25, 0.50]
    /// MS-TCN's background class name (`background`) and the usual name of a classifier's
    /// negative class (`none`).
    public static let standardBackgroundLabels: Set<String> = ["background", "none"]

    /// The IoU thresholds of the segmental F1, each in (0, 1].
    public let overlaps: [Double]
    /// Labels that mean "no action", besides nil.
    public let backgroundLabels: Set<String>

    /// Creates the metrics.
    /// - Parameters:
    ///   - overlaps: IoU thresholds, each in (0, 1]; default 0.10, 0.25, 0.50.
    ///   - backgroundLabels: Labels scored as background, besides nil; default `background`, `none`.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` for a threshold outside (0, 1].
    public init(overlaps: [Double] = standardOverlaps, backgroundLabels: Set<String> = standardBackgroundLabels) throws(PostprocessingError) {
        for overlap in overlaps where !(overlap > 0 && overlap <= 1) {
            throw .invalidParameter(name: "IoU threshold", value: "\(overlap)", reason: "must be in (0, 1]")
        }
        self.overlaps = overlaps
        self.backgroundLabels = backgroundLabels
    }

    /// The scores of one stream.
    /// - Parameters:
    ///   - predicted: The predicted label of every frame, `[N]` (for example ``SegmentBuilder/frameLabels(of:labels:frameCount:frameRate:)``).
    ///   - groundTruth: The annotated label of every frame, `[N]` (for example ``FrameLabels/labels(ofIntervals:frameCount:frameRate:)``).
    /// - Throws: As ``score(_:)``.
    public func score(predicted: [String?], groundTruth: [String?]) throws(PostprocessingError) -> TemporalSegmentationScore {
        try score([(predicted, groundTruth)])
    }

    /// The scores of several streams scored together, as a dataset's test split is.
    /// - Parameter sequences: For each stream, the predicted and the annotated label of every frame, of equal length.
    /// - Returns: Overall and per-class scores, classes sorted by label.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` when there is no
    ///   stream or a stream has no frame; ``PostprocessingError/lengthMismatch(what:expected:found:)``
    ///   when a stream's two labellings differ in length.
    public func score(_ sequences: [(predicted: [String?], groundTruth: [String?])]) throws(PostprocessingError) -> TemporalSegmentationScore {
        guard !sequences.isEmpty else { throw .invalidParameter(name: "streams", value: "[]", reason: "at least one stream is needed") }
        var frameCount = 0
        var correctFrames = 0
        var editSum = 0.0
        var overall = overlaps.map { SegmentalF1(overlap: $0, truePositives: 0, falsePositives: 0, falseNegatives: 0) }
        var classes: [String: ClassTally] = [:]

        for (number, sequence) in sequences.enumerated() {
            guard sequence.predicted.count == sequence.groundTruth.count else {
                throw .lengthMismatch(
                    what: "predicted frame labels of stream \(number)", expected: sequence.groundTruth.count, found: sequence.predicted.count)
            }
            guard !sequence.groundTruth.isEmpty else {
                throw .invalidParameter(name: "frame labels of stream \(number)", value: "[]", reason: "a stream needs at least one frame")
            }
            let predicted = sequence.predicted.map(foreground)
            let truth = sequence.groundTruth.map(foreground)
            frameCount += truth.count
            for (guess, answer) in zip(predicted, truth) {
                if guess == answer { correctFrames += 1 }
                if let answer {
                    classes[answer, default: ClassTally(overlapCount: overlaps.count)].frames += 1
                    if guess == answer { classes[answer, default: ClassTally(overlapCount: overlaps.count)].correctFrames += 1 }
                }
            }
            let predictedRuns = LabelRun.runs(of: predicted)
            let truthRuns = LabelRun.runs(of: truth)
            editSum += EditScore.score(predicted: predictedRuns.map(\.label), groundTruth: truthRuns.map(\.label))
            for (position, overlap) in overlaps.enumerated() {
                let counts = SegmentalF1.counts(predicted: predictedRuns, groundTruth: truthRuns, overlap: overlap)
                overall[position].truePositives += counts.tp
                overall[position].falsePositives += counts.fp
                overall[position].falseNegatives += counts.fn
            }
            for label in Set(predictedRuns.map(\.label) + truthRuns.map(\.label)) {
                let predictedOfClass = predictedRuns.filter { $0.label == label }
                let truthOfClass = truthRuns.filter { $0.label == label }
                var tally = classes[label, default: ClassTally(overlapCount: overlaps.count)]
                tally.segments += truthOfClass.count
                tally.predictedSegments += predictedOfClass.count
                for (position, overlap) in overlaps.enumerated() {
                    let counts = SegmentalF1.counts(predicted: predictedOfClass, groundTruth: truthOfClass, overlap: overlap)
                    tally.counts[position].tp += counts.tp
                    tally.counts[position].fp += counts.fp
                    tally.counts[position].fn += counts.fn
                }
                classes[label] = tally
            }
        }

        let perClass = classes.keys.sorted().compactMap { label -> ClassSegmentationScore? in
            guard let tally = classes[label] else { return nil }
            return ClassSegmentationScore(
                label: label, frameCount: tally.frames,
                frameAccuracy: tally.frames > 0 ? 100 * Double(tally.correctFrames) / Double(tally.frames) : nil,
                segmentCount: tally.segments, predictedSegmentCount: tally.predictedSegments,
                f1: zip(overlaps, tally.counts).map { SegmentalF1(overlap: $0, truePositives: $1.tp, falsePositives: $1.fp, falseNegatives: $1.fn) })
        }
        return TemporalSegmentationScore(
            frameCount: frameCount, sequenceCount: sequences.count, frameAccuracy: 100 * Double(correctFrames) / Double(frameCount),
            editScore: editSum / Double(sequences.count), f1: overall, perClass: perClass)
    }

    /// `label`, or nil when it is background.
    func foreground(_ label: String?) -> String? {
        guard let label, !backgroundLabels.contains(label) else { return nil }
        return label
    }

    /// Running counts of one class.
    struct ClassTally {
        var frames = 0
        var correctFrames = 0
        var segments = 0
        var predictedSegments = 0
        var counts: [(tp: Int, fp: Int, fn: Int)]

        init(overlapCount: Int) {
            counts = Array(repeating: (0, 0, 0), count: overlapCount)
        }
    }
}
