import AtomicFiles
import Foundation
import Reports
import Training

/// The SVG charts of a sweep folder, in `charts/`, linked from `summary.md`:
///
/// - `curves-<id>.svg`: training and validation accuracy against epoch of the best
///   configuration's first seed (trial `<id>`), from its `curves.csv`;
/// - `loss-<id>.svg`: the same trial's training and validation loss;
/// - `confusion-test-<id>.svg`: that trial's test confusion matrix (windows), from
///   `confusion_test.csv`, when there is a test set;
/// - `<parameter>.svg` per swept parameter (`windows.duration.svg`): the selection metric,
///   mean ± std over every trial with each value, and each configuration's mean.
///
/// Which charts exist follows from the plan and the leaderboard alone (``charts``), so the
/// summary can link them before or without reading any file.
public struct SweepCharts {
    /// One chart file.
    public struct Chart: Sendable, Equatable {
        /// Path relative to the sweep folder, `charts/<name>.svg`.
        public var path: String
        /// What it shows, for the Markdown image's alternative text.
        public var caption: String
    }

    /// The sweep.
    public var plan: SweepPlan
    /// Its leaderboard.
    public var leaderboard: Leaderboard

    /// The charts' folder inside a sweep folder.
    public static let folderName = "charts"

    public init(plan: SweepPlan, leaderboard: Leaderboard) {
        self.plan = plan
        self.leaderboard = leaderboard
    }

    /// Writes every chart of the sweep in `folder` into `folder/charts/`.
    /// - Throws: `ReportError.unreadableReport` if the best trial's `curves.csv` or
    ///   `confusion_test.csv` is missing or malformed; `AtomicFileError` if a chart cannot be written.
    public static func write(plan: SweepPlan, leaderboard: Leaderboard, folder: URL) throws {
        try SweepCharts(plan: plan, leaderboard: leaderboard).write(to: folder)
    }

    /// What a chart is drawn from.
    private enum Source {
        case accuracy(TrialOutcome), loss(TrialOutcome), confusion(TrialOutcome), parameter(String)
    }

    /// The charts ``write(to:)`` writes, in the order the summary shows them.
    public var charts: [Chart] { sources.map(\.chart) }

    private var sources: [(chart: Chart, source: Source)] {
        var sources: [(Chart, Source)] = []
        if let best = leaderboard.rows.first, let trial = best.outcomes.first {
            let configuration = best.values.isEmpty ? "" : " of the best configuration"
            sources.append((Chart(path: "\(Self.folderName)/curves-\(trial.id).svg",
                                  caption: "Accuracy against epoch\(configuration), seed \(trial.seed)"), .accuracy(trial)))
            sources.append((Chart(path: "\(Self.folderName)/loss-\(trial.id).svg",
                                  caption: "Loss against epoch\(configuration), seed \(trial.seed)"), .loss(trial)))
            if trial.splits["test"] != nil {
                sources.append((Chart(path: "\(Self.folderName)/confusion-test-\(trial.id).svg",
                                      caption: "Test confusion matrix\(configuration), seed \(trial.seed)"), .confusion(trial)))
            }
        }
        if !leaderboard.rows.isEmpty {
            for parameter in leaderboard.parameters {
                sources.append((Chart(path: "\(Self.folderName)/\(Self.fileName(parameter)).svg",
                                      caption: "\(Self.metricName(leaderboard.metric)) by \(parameter)"), .parameter(parameter)))
            }
        }
        return sources
    }

    /// Writes the charts into `folder/charts/`.
    /// - Returns: The charts written, in ``charts`` order, with their documents (for the HTML page).
    /// - Throws: See ``write(plan:leaderboard:folder:)``.
    @discardableResult
    public func write(to folder: URL) throws -> [(chart: Chart, document: SVGDocument)] {
        let drawn = try documents(in: folder)
        for (chart, document) in drawn {
            try AtomicFile.write(document.xml, to: folder.appendingPathComponent(chart.path))
        }
        return drawn
    }

    /// The charts of the sweep in `folder`, drawn, in ``charts`` order.
    /// - Throws: `ReportError.unreadableReport` if the best trial's `curves.csv` or
    ///   `confusion_test.csv` is missing or malformed.
    public func documents(in folder: URL) throws -> [(chart: Chart, document: SVGDocument)] {
        try sources.map { chart, source in
            switch source {
            case .accuracy(let trial): return (chart, try curves(of: trial, in: folder, loss: false).document)
            case .loss(let trial): return (chart, try curves(of: trial, in: folder, loss: true).document)
            case .confusion(let trial): return (chart, try confusion(of: trial, in: folder).document)
            case .parameter(let parameter): return (chart, metricChart(parameter).document)
            }
        }
    }

    // MARK: - Charts

    /// Accuracy (or loss) against epoch of one trial, training and validation, from its `curves.csv`.
    func curves(of trial: TrialOutcome, in folder: URL, loss: Bool) throws -> LineChart {
        let history = try RunReport.readHistory(from: trialFolder(trial, folder).appendingPathComponent("curves.csv"))
        return Self.curves(history, name: plan.base.name, subtitle: Self.subtitle(trial), loss: loss)
    }

    /// Accuracy (or loss) against epoch, training and validation.
    /// - Parameters:
    ///   - history: One record per epoch.
    ///   - name: The experiment's name, the title's start.
    ///   - subtitle: Which trial (``subtitle(_:)``).
    ///   - loss: Loss (mean cross-entropy, nats) instead of accuracy (fraction of windows).
    static func curves(_ history: [EpochRecord], name: String, subtitle: String, loss: Bool) -> LineChart {
        func series(_ name: String, dashed: Bool, _ value: (EpochRecord) -> Double?) -> LineChart.Series {
            LineChart.Series(
                name: name, points: history.compactMap { record in value(record).map { .init(x: Double(record.epoch), y: $0) } },
                dashed: dashed)
        }
        let training = loss ? series("training loss", dashed: false, \.trainLoss) : series("training accuracy", dashed: false, \.trainAccuracy)
        let validation = loss
            ? series("validation loss", dashed: true, \.validationLoss) : series("validation accuracy", dashed: true, \.validationAccuracy)
        return LineChart(
            title: "\(name): \(loss ? "loss" : "accuracy") by epoch", subtitle: subtitle,
            xLabel: "epoch", yLabel: loss ? "loss (mean cross-entropy, nats)" : "accuracy (fraction of windows)",
            series: [training, validation], yBounds: loss ? 0...Double.infinity : 0...1, integerX: true)
    }

    /// The test confusion matrix (windows) of one trial, from its `confusion_test.csv`.
    func confusion(of trial: TrialOutcome, in folder: URL) throws -> Heatmap {
        let matrix = try RunReport.readConfusion(from: trialFolder(trial, folder).appendingPathComponent("confusion_test.csv"))
        return Self.confusion(matrix, split: "test", name: plan.base.name, subtitle: Self.subtitle(trial))
    }

    /// A split's confusion matrix (windows) as a heatmap, its accuracy and window count in the subtitle.
    static func confusion(_ matrix: ConfusionMatrix, split: String, name: String, subtitle: String) -> Heatmap {
        Heatmap(
            title: "\(name): \(split) confusion matrix (windows)",
            subtitle: subtitle + ", accuracy \(NumberFormat.fixed(matrix.accuracy, digits: 3)) over \(matrix.total) windows",
            matrix: matrix)
    }

    /// The selection metric against the values of `parameter`.
    func metricChart(_ parameter: String) -> MetricByParameterChart {
        let metric = leaderboard.metric
        let others = leaderboard.parameters.filter { $0 != parameter }
        let groups = leaderboard.parameterGroups(parameter).map { value, rows -> MetricByParameterChart.Group in
            let values = rows.flatMap(\.outcomes).compactMap(metric.value(in:))
            let statistics = Statistics(values)
            let configurations = rows.compactMap { row -> (label: String, mean: Double)? in
                guard let selection = row.selection else { return nil }
                let label = others.compactMap { path in row.values.first { $0.path == path }?.assignment }
                return (label.isEmpty ? "configuration \(row.cell)" : label.joined(separator: ", "), selection)
            }
            return MetricByParameterChart.Group(
                label: Trial.SweptValue.display(value), numericValue: Trial.SweptValue.number(value), mean: statistics.mean,
                standardDeviation: statistics.standardDeviation, trials: values.count, configurations: configurations)
        }
        let unit = Self.units[parameter].map { " (\($0))" } ?? ""
        return MetricByParameterChart(
            title: "\(plan.base.name): \(Self.metricName(metric)) by \(parameter)",
            subtitle: "mean ± sample standard deviation over every trial with each value",
            parameterLabel: parameter + unit, metricLabel: Self.metricName(metric), groups: groups,
            yBounds: metric == .validationLoss ? 0...Double.infinity : 0...1)
    }

    // MARK: - Helpers

    private func trialFolder(_ trial: TrialOutcome, _ folder: URL) -> URL {
        folder.appendingPathComponent("trials").appendingPathComponent(trial.id)
    }

    /// `trial 1a2b…, seed 1: windows.duration=5, augmentation=full`.
    static func subtitle(_ trial: TrialOutcome) -> String {
        subtitle(id: trial.id, seed: trial.seed, values: trial.values)
    }

    /// `trial 1a2b…, seed 1: windows.duration=5, augmentation=full`.
    static func subtitle(id: String, seed: Int, values: [Trial.SweptValue]) -> String {
        let assignments = values.map(\.assignment).joined(separator: ", ")
        return "trial \(id), seed \(seed)" + (assignments.isEmpty ? "" : ": \(assignments)")
    }

    /// Units of the settings commonly swept, for axis titles.
    static let units: [String: String] = [
        "windows.duration": "s", "windows.size": "frames", "windows.stride": "frames", "windows.frameRate": "frames per second",
        "features.frameRate": "frames per second", "training.epochs": "epochs", "training.batchSize": "windows",
    ]

    /// The metric in words: `validation accuracy`, `validation macro-F1`.
    static func metricName(_ metric: SelectionMetric) -> String {
        switch metric {
        case .validationAccuracy: return "validation accuracy"
        case .validationMacroF1: return "validation macro-F1"
        case .validationLoss: return "validation loss"
        case .validationSequenceAccuracy: return "validation accuracy (sequences)"
        case .trainAccuracy: return "training accuracy"
        case .testAccuracy: return "test accuracy"
        }
    }

    /// A swept path as a file name: characters other than `A-Z a-z 0-9 . _ -` become `_`.
    static func fileName(_ path: String) -> String {
        String(path.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
