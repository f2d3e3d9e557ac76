/// The segmental F1 score at one IoU threshold, with the segment counts it comes from
/// (Lea et al., "Temporal Convolutional Networks for Action Segmentation and Detection", CVPR 2017;
/// as MS-TCN's `f_score` computes it, Farha and Gall, CVPR 2019).
///
/// Each predicted segment is matched to the ground-truth segment of the same label with which
/// it has the highest intersection over union (the first on ties). It is a true positive when
/// that IoU reaches ``overlap`` and that ground-truth segment is not matched yet, and a false
/// positive otherwise; ground-truth segments left unmatched are false negatives. Counts add up
/// over the sequences scored together before precision and recall are taken.
public struct SegmentalF1: Sendable, Equatable {
    /// The IoU threshold, in (0, 1]: 0.10, 0.25 or 0.50 in the papers' tables.
    public var overlap: Double
    /// Predicted segments matched to a ground-truth segment.
    public var truePositives: Int
    /// Predicted segments not matched.
    public var falsePositives: Int
    /// Ground-truth segments not matched.
    public var falseNegatives: Int

    public init(overlap: Double, truePositives: Int, falsePositives: Int, falseNegatives: Int) {
        self.overlap = overlap
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
    }

    /// Precision, in percent (0–100); 0 when nothing was predicted.
    public var precision: Double {
        truePositives + falsePositives > 0 ? 100 * Double(truePositives) / Double(truePositives + falsePositives) : 0
    }

    /// Recall, in percent (0–100); 0 when the ground truth has no segment.
    public var recall: Double {
        truePositives + falseNegatives > 0 ? 100 * Double(truePositives) / Double(truePositives + falseNegatives) : 0
    }

    /// F1, the harmonic mean of precision and recall, in percent (0–100); 0 when there is no
    /// true positive (MS-TCN's `nan_to_num` of 0 / 0).
    public var f1: Double {
        guard truePositives > 0 else { return 0 }
        let precision = Double(truePositives) / Double(truePositives + falsePositives)
        let recall = Double(truePositives) / Double(truePositives + falseNegatives)
        return 2.0 * (precision * recall) / (precision + recall) * 100
    }

    /// The counts of `predicted` against `groundTruth` at `overlap` (MS-TCN's `f_score`).
    static func counts(predicted: [LabelRun], groundTruth: [LabelRun], overlap: Double) -> (tp: Int, fp: Int, fn: Int) {
        var hits = [Bool](repeating: false, count: groundTruth.count)
        var truePositives = 0
        var falsePositives = 0
        for segment in predicted {
            var best: Int? = nil
            var bestIoU = -Double.infinity
            for (index, truth) in groundTruth.enumerated() {
                let intersection = min(segment.end, truth.end) - max(segment.start, truth.start)
                let union = max(segment.end, truth.end) - min(segment.start, truth.start)
                let iou = segment.label == truth.label ? Double(intersection) / Double(union) : 0
                if iou > bestIoU {
                    bestIoU = iou
                    best = index
                }
            }
            if let best, bestIoU >= overlap, !hits[best] {
                truePositives += 1
                hits[best] = true
            } else {
                falsePositives += 1
            }
        }
        return (truePositives, falsePositives, groundTruth.count - hits.count { $0 })
    }
}
