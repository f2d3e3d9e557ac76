import Foundation

/// `summary.md` of an experiment: every metric as mean ± standard deviation across seeds, the
/// per-seed values, the data each split held, and links to each run's files.
public struct SummaryReport {
    /// One trained run.
    public struct Run {
        /// The seed.
        public var seed: Int
        /// The run's folder name inside the experiment folder (`seed-1`).
        public var folder: String
        /// The run's curves and metrics.
        public var report: RunReport

        public init(seed: Int, folder: String, report: RunReport) {
            self.seed = seed
            self.folder = folder
            self.report = report
        }
    }

    /// Sequence and window counts of one split.
    public struct SplitSize: Sendable {
        public var sequences: Int
        public var windows: Int
        public init(sequences: Int, windows: Int) {
            self.sequences = sequences
            self.windows = windows
        }
    }

    /// Experiment name from the manifest.
    public var name: String
    /// One line per setting worth seeing at a glance (window size, model, epochs...).
    public var settings: [(String, String)]
    /// Data per split name.
    public var splitSizes: [String: SplitSize]
    /// The runs, in seed order.
    public var runs: [Run]

    public init(name: String, settings: [(String, String)], splitSizes: [String: SplitSize], runs: [Run]) {
        self.name = name
        self.settings = settings
        self.splitSizes = splitSizes
        self.runs = runs
    }

    /// A metric row: its name and how to read it from one run (nil when the split is absent).
    private typealias MetricRow = (name: String, value: (RunReport) -> Double?)

    private static let metricRows: [MetricRow] = {
        var rows: [MetricRow] = []
        for split in ["test", "validation", "train"] {
            rows.append(("\(split) accuracy (windows)", { $0.metrics[split]?.window.accuracy }))
            rows.append(("\(split) macro-F1 (windows)", { $0.metrics[split]?.window.macroF1 }))
            rows.append(("\(split) accuracy (sequences)", { $0.metrics[split]?.sequence.accuracy }))
            rows.append(("\(split) macro-F1 (sequences)", { $0.metrics[split]?.sequence.macroF1 }))
        }
        rows.append(("final train loss", { $0.history.last?.trainLoss }))
        return rows
    }()

    /// The Markdown text.
    public var markdown: String {
        var text = "# \(name): summary over \(runs.count) seed\(runs.count == 1 ? "" : "s")\n\n"
        var settingsTable = Table(header: ["setting", "value"])
        for (key, value) in settings { settingsTable.append([key, value]) }
        text += settingsTable.markdown + "\n"

        var data = Table(header: ["split", "sequences", "windows"], numericColumns: [1, 2])
        for split in RunReport.splitOrder {
            guard let size = splitSizes[split] else { continue }
            data.append([split, "\(size.sequences)", "\(size.windows)"])
        }
        text += "## Data\n\n" + data.markdown + "\n"

        var metrics = Table(
            header: ["metric", "mean ± std"] + runs.map { "seed \($0.seed)" },
            numericColumns: Set(1...(runs.count + 1)))
        for row in Self.metricRows {
            let values = runs.map { row.value($0.report) }
            let present = values.compactMap { $0 }
            guard !present.isEmpty else { continue }
            metrics.append([row.name, NumberFormat.meanStd(present)] + values.map { $0.map { NumberFormat.fixed($0) } ?? "" })
        }
        text += "## Metrics\n\nMean ± sample standard deviation across seeds.\n\n" + metrics.markdown + "\n"

        var links = Table(header: ["seed", "curves", "test confusion", "metrics", "weights"])
        for run in runs {
            let f = run.folder
            let confusion = run.report.metrics["test"] != nil ? "[windows](\(f)/confusion_test.md), [sequences](\(f)/confusion_test_sequence.md)" : ""
            links.append([
                "[\(run.seed)](\(f)/)", "[curves.md](\(f)/curves.md), [csv](\(f)/curves.csv)", confusion,
                "[metrics.json](\(f)/metrics.json)", "[weights.h5](\(f)/weights.h5)",
            ])
        }
        return text + "## Runs\n\n" + links.markdown
    }
}
