/// A maximal run of frames with one non-background label: a segment as temporal action
/// segmentation scores it, in frames.
///
/// The runs of a frame-wise labelling are what MS-TCN's `get_labels_start_end_time` returns
/// (Farha and Gall 2019, after Lea et al. 2017): one per change of label, background runs left out.
struct LabelRun: Equatable {
    /// The run's label.
    var label: String
    /// Its first frame.
    var start: Int
    /// One past its last frame.
    var end: Int

    /// The runs of `labels` (nil = background), in time order.
    static func runs(of labels: [String?]) -> [LabelRun] {
        var runs: [LabelRun] = []
        var start = 0
        while start < labels.count {
            var end = start + 1
            while end < labels.count, labels[end] == labels[start] { end += 1 }
            if let label = labels[start] { runs.append(LabelRun(label: label, start: start, end: end)) }
            start = end
        }
        return runs
    }
}
