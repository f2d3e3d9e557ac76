/// The temporal action segmentation scores of one or more labelled streams: frame-wise
/// accuracy, segmental F1 at IoU thresholds and the edit score, overall and per class.
///
/// Scores are in percent (0–100), as MS-TCN (Farha and Gall, CVPR 2019) reports them.
public struct TemporalSegmentationScore: Sendable, Equatable {
    /// Frames scored, over all streams.
    public var frameCount: Int
    /// Streams scored.
    public var sequenceCount: Int
    /// The share of frames whose predicted label equals the ground truth's, background frames
    /// included (MS-TCN's `Acc`), pooled over all frames of all streams, in percent.
    public var frameAccuracy: Double
    /// The segmental edit score, `100 · (1 − d / max(m, n))` for the Levenshtein distance `d`
    /// between the predicted and ground-truth segment label sequences (background left out),
    /// averaged over streams, in percent (MS-TCN's `Edit`). It scores the order of a whole
    /// stream's segments, so it has no per-class value.
    public var editScore: Double
    /// The segmental F1 at each IoU threshold (MS-TCN's `F1@k`), from counts pooled over streams.
    public var f1: [SegmentalF1]
    /// The scores of each class that occurs in the ground truth or the prediction, by label.
    public var perClass: [ClassSegmentationScore]

    public init(
        frameCount: Int, sequenceCount: Int, frameAccuracy: Double, editScore: Double, f1: [SegmentalF1], perClass: [ClassSegmentationScore]
    ) {
        self.frameCount = frameCount
        self.sequenceCount = sequenceCount
        self.frameAccuracy = frameAccuracy
        self.editScore = editScore
        self.f1 = f1
        self.perClass = perClass
    }

    /// The overall F1 at `overlap`, in percent, or nil when it was not scored.
    public func f1(at overlap: Double) -> Double? {
        f1.first { $0.overlap == overlap }?.f1
    }
}
