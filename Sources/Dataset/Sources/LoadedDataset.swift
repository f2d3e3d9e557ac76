/// The sequences of an experiment's splits, after import, caching, label mapping and the
/// validation split: in memory, or as references into the feature cache for data sets larger
/// than ``DatasetLoader/inMemoryLimit``.
public struct LoadedDataset: Sendable {
    /// Training sequences.
    public var train: [DatasetSequence]
    /// Validation sequences; empty with `validation.strategy: "none"`.
    public var validation: [DatasetSequence]
    /// Test sequences; empty without a `dataset.test` section.
    public var test: [DatasetSequence]
    /// Class names: the labels of the training sequences, sorted.
    public var labels: [String]
    /// Every source file read, for provenance.
    public var records: [DataSourceRecord]
    /// Source files read from the feature cache rather than imported.
    public var cacheHits: Int
    /// Files that failed and were skipped under `dataset.onError: "skip"`: one message each,
    /// naming the file and the underlying library's error.
    public var skipped: [String] = []
    /// How each split was made, one sentence per split (`validation: 1 of 4 subjects ...`), for
    /// summary.md and the trial report.
    public var splitMethods: [String] = []

    /// Whether any sequence is read from the feature cache on demand rather than held in memory.
    public var isStreamed: Bool {
        !(train.allSatisfy(\.isLoaded) && validation.allSatisfy(\.isLoaded) && test.allSatisfy(\.isLoaded))
    }

    /// The split names, in report order.
    public static let splitNames = ["train", "validation", "test"]

    /// The sequences of a split by name (`train`, `validation`, `test`).
    public func sequences(of split: String) -> [DatasetSequence] {
        switch split {
        case "train": return train
        case "validation": return validation
        default: return test
        }
    }
}
