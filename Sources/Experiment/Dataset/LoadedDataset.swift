import Pose

/// The sequences of an experiment's splits, after import, caching, label mapping and the
/// validation split.
public struct LoadedDataset: Sendable {
    /// Training sequences.
    public var train: [LabeledSequence]
    /// Validation sequences; empty with `validation.strategy: "none"`.
    public var validation: [LabeledSequence]
    /// Test sequences; empty without a `dataset.test` section.
    public var test: [LabeledSequence]
    /// Class names: the labels of the training sequences, sorted.
    public var labels: [String]
    /// Every source file read, for provenance.
    public var records: [DataSourceRecord]
    /// Source files read from the feature cache rather than imported.
    public var cacheHits: Int
    /// Files that failed and were skipped under `dataset.onError: "skip"`: one message each,
    /// naming the file and the underlying library's error.
    public var skipped: [String] = []

    /// The sequences of a split by name (`train`, `validation`, `test`).
    public func sequences(of split: String) -> [LabeledSequence] {
        switch split {
        case "train": return train
        case "validation": return validation
        default: return test
        }
    }
}
