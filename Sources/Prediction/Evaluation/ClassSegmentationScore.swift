/// The temporal action segmentation scores of one action class.
public struct ClassSegmentationScore: Sendable, Equatable {
    /// The class.
    public var label: String
    /// Ground-truth frames of the class.
    public var frameCount: Int
    /// Of those frames, the share the prediction labels with the class (the class's frame-wise
    /// accuracy, that is its frame recall), in percent (0–100); nil when the ground truth has
    /// no frame of the class.
    public var frameAccuracy: Double?
    /// Ground-truth segments of the class.
    public var segmentCount: Int
    /// Predicted segments of the class.
    public var predictedSegmentCount: Int
    /// The segmental F1 of the class's segments alone, one per IoU threshold, in the metrics'
    /// order. A predicted segment only ever matches a ground-truth segment of its own label, so
    /// the classes' counts add up to the overall counts.
    public var f1: [SegmentalF1]

    public init(label: String, frameCount: Int, frameAccuracy: Double?, segmentCount: Int, predictedSegmentCount: Int, f1: [SegmentalF1]) {
        self.label = label
        self.frameCount = frameCount
        self.frameAccuracy = frameAccuracy
        self.segmentCount = segmentCount
        self.predictedSegmentCount = predictedSegmentCount
        self.f1 = f1
    }

    /// The F1 at `overlap`, in percent, or nil when it was not scored.
    public func f1(at overlap: Double) -> Double? {
        f1.first { $0.overlap == overlap }?.f1
    }
}
