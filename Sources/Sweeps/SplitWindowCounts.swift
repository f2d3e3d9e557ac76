import Dataset
import Manifest
import Reports

/// How many recordings, sequences and windows each split holds per label: the table
/// `actionlab validate --data` prints, so that a split that starves a label shows before training.
///
/// Windows are cut exactly as a trial cuts them (``TrialRunner/windows(of:configuration:)``: the
/// configuration's window size, stride, frame rate and padding). A recording is a sequence
/// group (`LabeledSequence.group`: a file, a clip folder, a video), the unit the validation
/// split keeps on one side.
public struct SplitWindowCounts: Sendable {
    /// One row: a split and label.
    public struct Row: Sendable, Equatable {
        /// `train`, `validation` or `test`.
        public var split: String
        /// The class label (after `dataset.labels`).
        public var label: String
        /// Distinct recordings (sequence groups) with a sequence of the label.
        public var recordings: Int
        /// Sequences of the label.
        public var sequences: Int
        /// Windows cut from them.
        public var windows: Int
    }

    /// Rows in split order (train, validation, test), labels sorted within a split; a split
    /// without sequences has no rows.
    public var rows: [Row]

    /// Counts the windows `configuration` cuts from `dataset`.
    ///
    /// - Parameters:
    ///   - dataset: The loaded splits.
    ///   - configuration: The trial configuration whose `windows` section cuts the windows.
    /// - Throws: What cutting windows throws (`FeatureCacheError` for an unreadable cached sequence).
    public init(dataset: LoadedDataset, configuration: ExperimentConfiguration) throws {
        let windows = try TrialRunner.windows(of: dataset, configuration: configuration)
        rows = []
        recordingsPerSplit = [:]
        for split in RunReport.splitOrder {
            let sequences = dataset.sequences(of: split)
            guard !sequences.isEmpty else { continue }
            recordingsPerSplit[split] = Set(sequences.map(\.group)).count
            var windowCounts: [String: Int] = [:]
            if let set = windows[split] {
                for label in set.labelIndices { windowCounts[set.labels[label], default: 0] += 1 }
            }
            for label in Set(sequences.map(\.label)).sorted() {
                let members = sequences.filter { $0.label == label }
                rows.append(Row(
                    split: split, label: label, recordings: Set(members.map(\.group)).count, sequences: members.count,
                    windows: windowCounts[label] ?? 0))
            }
        }
    }

    /// Distinct recordings per split.
    public var recordingsPerSplit: [String: Int]

    /// The rows as a table `split, label, recordings, sequences, windows`, each split followed by
    /// its total (`all`); a recording holding sequences of two labels counts under each label,
    /// once in the total.
    public var table: Table {
        var table = Table(header: ["split", "label", "recordings", "sequences", "windows"], numericColumns: [2, 3, 4])
        for split in RunReport.splitOrder {
            let splitRows = rows.filter { $0.split == split }
            guard !splitRows.isEmpty else { continue }
            for row in splitRows {
                table.append([split, row.label, "\(row.recordings)", "\(row.sequences)", "\(row.windows)"])
            }
            table.append([
                split, "all", "\(recordingsPerSplit[split] ?? 0)", "\(splitRows.reduce(0) { $0 + $1.sequences })",
                "\(splitRows.reduce(0) { $0 + $1.windows })",
            ])
        }
        return table
    }
}
