import AtomicFiles
import Foundation
import Training

/// The files of one training run (one seed): curves, confusion matrices and metrics.
///
/// Layout of the run folder (see the README's "Report layout"):
/// `config.json`, `provenance.json`, `curves.csv`, `curves.md`, `metrics.json`,
/// `confusion_<split>.csv` / `.md` (windows) and `confusion_<split>_sequence.csv` / `.md`
/// (sequences), `weights.h5`. Every file is written atomically.
public struct RunReport {
    /// The run's seed.
    public var seed: Int
    /// Per-epoch curves.
    public var history: [EpochRecord]
    /// Metrics per split name (`train`, `validation`, `test`); splits without data are absent.
    public var metrics: [String: SplitMetrics]
    /// The epoch whose weights were saved and scored (the last one unless the best epoch's
    /// weights were restored); nil means the last epoch.
    public var savedEpoch: Int?

    public init(seed: Int, history: [EpochRecord], metrics: [String: SplitMetrics], savedEpoch: Int? = nil) {
        self.seed = seed
        self.history = history
        self.metrics = metrics
        self.savedEpoch = savedEpoch
    }

    /// Split names in report order.
    public static let splitOrder = ["train", "validation", "test"]

    /// `curves.csv`: `epoch,train_loss,train_accuracy,validation_loss,validation_accuracy`;
    /// validation cells are empty when there is no validation set.
    public var curvesTable: Table {
        var table = Table(
            header: ["epoch", "train_loss", "train_accuracy", "validation_loss", "validation_accuracy"],
            numericColumns: [0, 1, 2, 3, 4])
        for record in history {
            table.append([
                "\(record.epoch)", NumberFormat.exact(record.trainLoss), NumberFormat.exact(record.trainAccuracy),
                record.validationLoss.map(NumberFormat.exact) ?? "",
                record.validationAccuracy.map(NumberFormat.exact) ?? "",
            ])
        }
        return table
    }

    /// `curves.md`: the curves rounded to four decimals, with the best validation epoch named.
    public var curvesMarkdown: String {
        var table = curvesTable
        table.rows = table.rows.map { row in
            row.enumerated().map { index, cell in index == 0 ? cell : (Double(cell).map { NumberFormat.fixed($0) } ?? cell) }
        }
        var text = "# Training curves (seed \(seed))\n\n"
        let last = history.last?.epoch ?? 0
        let saved = savedEpoch ?? last
        let weights = saved == last ? "the saved weights are those after the last epoch (\(last))" : "the saved weights are those after epoch \(saved)"
        // Which weights the scores (metrics.json, the confusion matrices, summary.md) are of.
        let scored = "every score (`metrics.json`, the confusion matrices) is theirs"
        if let best = bestValidationEpoch {
            text += "Best validation accuracy \(NumberFormat.fixed(best.validationAccuracy ?? 0)) at epoch \(best.epoch) "
            text += "of \(history.count); \(weights); \(scored).\n\n"
        } else if saved != last {
            text += "The saved weights are those after epoch \(saved) of \(history.count); \(scored).\n\n"
        } else if !history.isEmpty {
            text += "The saved weights are those after the last epoch (\(last)); \(scored).\n\n"
        }
        return text + table.markdown
    }

    /// The epoch with the highest validation accuracy (the earliest on ties), if there is validation data.
    public var bestValidationEpoch: EpochRecord? {
        history.filter { $0.validationAccuracy != nil }.max { lhs, rhs in
            (lhs.validationAccuracy ?? 0, rhs.epoch) < (rhs.validationAccuracy ?? 0, lhs.epoch)
        }
    }

    /// A confusion matrix as a table: rows true labels, columns predicted labels.
    public static func confusionTable(_ matrix: ConfusionMatrix) -> Table {
        var table = Table(header: ["true_label"] + matrix.labels, numericColumns: Set(1...max(1, matrix.labels.count)))
        for (index, label) in matrix.labels.enumerated() {
            table.append([label] + matrix.counts[index].map { "\($0)" })
        }
        return table
    }

    /// Markdown for one split's confusion matrix and per-class scores.
    static func confusionMarkdown(_ metrics: ClassificationMetrics, title: String) -> String {
        var scores = Table(header: ["class", "precision", "recall", "F1", "support"], numericColumns: [1, 2, 3, 4])
        for (index, label) in metrics.confusion.labels.enumerated() {
            let s = metrics.confusion.scores(ofClass: index)
            scores.append([label, NumberFormat.fixed(s.precision), NumberFormat.fixed(s.recall), NumberFormat.fixed(s.f1), "\(s.support)"])
        }
        var matrix = confusionTable(metrics.confusion)
        matrix.header[0] = "true \\ predicted"
        return """
            # \(title)

            Accuracy \(NumberFormat.fixed(metrics.accuracy)), macro-F1 \(NumberFormat.fixed(metrics.macroF1)), \
            \(metrics.count) items. Rows are true labels, columns predicted labels.

            \(matrix.markdown)
            \(scores.markdown)
            """
    }

    /// Writes the curves, confusion matrices and `metrics.json` into `folder`.
    /// - Throws: `ReportError.writeFailed` if a file cannot be written.
    public func write(to folder: URL) throws {
        try AtomicFile.write(curvesTable.csv, to: folder.appendingPathComponent("curves.csv"))
        try AtomicFile.write(curvesMarkdown, to: folder.appendingPathComponent("curves.md"))
        for split in Self.splitOrder {
            guard let splitMetrics = metrics[split] else { continue }
            for (suffix, level, levelName) in [("", splitMetrics.window, "windows"), ("_sequence", splitMetrics.sequence, "sequences")] {
                let base = folder.appendingPathComponent("confusion_\(split)\(suffix)")
                try AtomicFile.write(Self.confusionTable(level.confusion).csv, to: base.appendingPathExtension("csv"))
                try AtomicFile.write(
                    Self.confusionMarkdown(level, title: "Confusion matrix: \(split), \(levelName) (seed \(seed))"),
                    to: base.appendingPathExtension("md"))
            }
        }
        try AtomicFile.writeJSON(metrics, to: folder.appendingPathComponent("metrics.json"))
    }
}
