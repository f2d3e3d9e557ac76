import Manifest
import NeuralNetwork
import Reports

/// `summary.md` of a sweep folder: settings, the leaderboard, a table per swept parameter,
/// the best configuration's scores across seeds with links to its trials' files, and the
/// charts of ``SweepCharts``.
public struct SweepSummary {
    /// The sweep.
    public var plan: SweepPlan
    /// Its leaderboard.
    public var leaderboard: Leaderboard
    /// Trials that have not finished (failed or not yet run).
    public var missing: Int
    /// How each split was made (a finished trial's `provenance.json`, `split_methods`), or empty.
    public var splitMethods: [String]
    /// The stream ensembles of the sweep (``StreamEnsemble``), empty when it does not sweep `model.stream`.
    public var ensembles: [StreamEnsemble]

    public init(plan: SweepPlan, leaderboard: Leaderboard, missing: Int, splitMethods: [String] = [], ensembles: [StreamEnsemble] = []) {
        self.plan = plan
        self.leaderboard = leaderboard
        self.missing = missing
        self.splitMethods = splitMethods
        self.ensembles = ensembles
    }

    /// A metric row of the best configuration's table: its name, how to read it, and whether it
    /// counts epochs (printed as whole numbers per seed, the mean with one decimal).
    private typealias MetricRow = (name: String, value: @Sendable (TrialOutcome) -> Double?, isEpoch: Bool)

    private static let metricRows: [MetricRow] = {
        var rows: [MetricRow] = []
        for split in ["test", "validation", "train"] {
            rows.append(("\(split) accuracy (windows)", { $0.splits[split]?.accuracy }, false))
            rows.append(("\(split) macro-F1 (windows)", { $0.splits[split]?.macroF1 }, false))
            rows.append(("\(split) accuracy (sequences)", { $0.splits[split]?.sequenceAccuracy }, false))
            rows.append(("\(split) macro-F1 (sequences)", { $0.splits[split]?.sequenceMacroF1 }, false))
            rows.append(("\(split) loss (windows)", { $0.splits[split]?.loss }, false))
        }
        // complete.json's best_epoch: by validation accuracy, whatever metric chose the kept weights.
        rows.append(("best validation-accuracy epoch", { $0.bestEpoch.map(Double.init) }, true))
        rows.append(("epochs trained", { Double($0.epochs) }, true))
        rows.append(("scored epoch (the weights scored and saved)", { $0.savedEpoch.map(Double.init) }, true))
        return rows
    }()

    /// A row's cells: mean ± std (an epoch row's mean and std with one decimal, or the whole
    /// epoch when every seed has the same), then each seed's value (an epoch as a whole number).
    private static func cells(of row: MetricRow, values: [Double?]) -> [String] {
        let present = values.compactMap { $0 }
        guard row.isEpoch else {
            return [NumberFormat.meanStd(present)] + values.map { $0.map { NumberFormat.fixed($0) } ?? "" }
        }
        let whole: (Double) -> String = { NumberFormat.fixed($0, digits: 0) }
        let summary: String
        if Set(present).count == 1, let epoch = present.first {
            summary = whole(epoch)
        } else {
            let stats = Statistics(present)
            summary = "\(NumberFormat.fixed(stats.mean, digits: 1)) ± \(NumberFormat.fixed(stats.standardDeviation, digits: 1))"
        }
        return [summary] + values.map { $0.map(whole) ?? "" }
    }

    /// The sentence under the metrics table saying which epoch's weights gave the scores.
    private static func weightsSentence(_ configuration: ExperimentConfiguration) -> String {
        switch configuration.training.keptWeights {
        case .last:
            return "Scores are those of the weights after the last epoch trained (`training.weights` \"last\")."
        case .bestValidation:
            let metric = configuration.training.earlyStopping?.metric.rawValue ?? "validation.accuracy"
            return "Scores are those of the weights of the best validation epoch (`training.weights` \"bestValidation\"), "
                + "by \(metric): the scored epoch"
                + (metric == "validation.accuracy" ? "." : ", which can differ from the best validation-accuracy epoch.")
        }
    }

    /// The sentence under the title: how many configurations and trials, and how they are ranked.
    var introduction: String {
        plan.sweep.axes.isEmpty
            ? "\(plan.trials.count) trial\(plan.trials.count == 1 ? "" : "s"): one configuration, one per seed."
            : "Sweep of \(plan.sweep.cellCount) configurations × seeds = \(plan.trials.count) trials, ranked by "
                + "\(plan.sweep.selection.rawValue) (mean over seeds; ties: lower mean validation loss, then grid order)."
    }

    /// `setting | value`: ``settings(_:)`` of the base configuration, except where the grid's
    /// configurations disagree (a swept `training.recipe` changes the optimizer line, a swept
    /// `model.kind` the model line): those rows give each configuration's value, in grid order
    /// and without repeats, so the table never shows a value some trials did not train with.
    var settingsTable: Table {
        var table = Table(header: ["setting", "value"])
        let perCell = plan.cells.map { Self.settings($0) }
        for (row, (key, value)) in Self.settings(plan.base).enumerated() {
            var values: [String] = []
            for settings in perCell where row < settings.count && !values.contains(settings[row].1) {
                values.append(settings[row].1)
            }
            table.append([key, values.count > 1 ? "by configuration: " + values.joined(separator: "; or ") : value])
        }
        return table
    }

    /// `swept parameter | values`, one row per axis of the grid.
    var gridTable: Table {
        var table = Table(header: ["swept parameter", "values"])
        for axis in plan.sweep.axes { table.append([axis.path, axis.values.joined(separator: ", ")]) }
        return table
    }

    /// The best configuration's sequences and windows per split (its first seed's).
    var bestDataTable: Table? {
        guard let first = leaderboard.rows.first?.outcomes.first else { return nil }
        var data = Table(header: ["split", "sequences", "windows"], numericColumns: [1, 2])
        for split in RunReport.splitOrder {
            guard let scores = first.splits[split] else { continue }
            data.append([split, "\(scores.sequences)", "\(scores.windows)"])
        }
        return data
    }

    /// The best configuration's metrics: mean ± std, then one column per seed.
    var bestMetricsTable: Table? {
        guard let best = leaderboard.rows.first else { return nil }
        var metrics = Table(
            header: ["metric", best.outcomes.count > 1 ? "mean ± std" : "value"] + best.outcomes.map { "seed \($0.seed)" },
            numericColumns: Set(1...(best.outcomes.count + 1)))
        for row in Self.metricRows {
            let values = best.outcomes.map(row.value)
            let present = values.compactMap { $0 }
            guard !present.isEmpty else { continue }
            metrics.append([row.name] + Self.cells(of: row, values: values))
        }
        return metrics
    }

    /// The sentence above ``bestMetricsTable``: what the cells are and which weights were scored.
    var bestMetricsNote: String {
        let best = leaderboard.rows.first
        return ((best?.outcomes.count ?? 0) > 1 ? "Mean ± sample standard deviation across seeds." : "One seed.")
            + " Loss is the mean softmax cross-entropy. "
            + Self.weightsSentence(plan.trials.first { $0.id == best?.outcomes.first?.id }?.configuration ?? plan.base)
    }

    /// The Markdown text.
    public var markdown: String {
        let base = plan.base
        let grid = !plan.sweep.axes.isEmpty
        var text = "# \(base.name)\n\n"
        if !base.description.isEmpty { text += base.description + "\n\n" }
        text += introduction + "\n\n"
        if missing > 0 {
            text += "**\(missing) of \(plan.trials.count) trials have not finished**; rerun `actionlab run` on this folder to complete them.\n\n"
        }
        text += divergedSection
        text += settingsTable.markdown + "\n"
        if !splitMethods.isEmpty {
            text += "## Data splits\n\n" + splitMethods.map { "- \($0)\n" }.joined() + "\n"
        }

        if grid {
            text += "## Grid\n\n" + gridTable.markdown + "\n"
            text += "## Leaderboard\n\nMean ± sample standard deviation over seeds; [leaderboard.csv](leaderboard.csv) has every column.\n\n"
            text += leaderboard.markdownTable.markdown + "\n"
            for (parameter, table) in leaderboard.parameterTables() {
                text += "### By \(parameter)\n\nMeans over every configuration and seed with each value.\n\n" + table.markdown + "\n"
            }
            text += StreamEnsemble.markdownSection(ensembles, parameters: leaderboard.parameters)
        }
        guard let best = leaderboard.rows.first, let metrics = bestMetricsTable else { return text + "No trial has finished.\n" }
        text += grid ? "## Best configuration\n\n\(best.values.map { "`\($0.path)` = \($0.value)" }.joined(separator: ", "))\n\n" : "## Results\n\n"
        if let data = bestDataTable { text += data.markdown + "\n" }
        text += bestMetricsNote + "\n\n" + metrics.markdown + "\n"

        var links = Table(header: ["seed", "trial", "curves", "test confusion", "metrics", "weights"])
        for outcome in best.outcomes {
            let f = "trials/\(outcome.id)"
            let confusion = outcome.splits["test"] != nil
                ? "[windows](\(f)/confusion_test.md), [sequences](\(f)/confusion_test_sequence.md)" : ""
            links.append([
                "\(outcome.seed)", "[\(outcome.id)](\(f)/)", "[curves.md](\(f)/curves.md), [csv](\(f)/curves.csv)", confusion,
                "[metrics.json](\(f)/metrics.json)", outcome.diverged == nil ? "[weights.h5](\(f)/weights.h5)" : "none (diverged)",
            ])
        }
        return text + links.markdown + chartsSection
    }

    /// The trials whose loss or weights became non-finite, with where and the value, before the settings;
    /// empty when every trial stayed finite.
    private var divergedSection: String {
        let diverged = leaderboard.rows.flatMap(\.diverged).sorted { $0.index < $1.index }
        guard !diverged.isEmpty else { return "" }
        var table = Table(header: ["trial", "seed", "epoch", "batch", "split", "loss", "not finite"], numericColumns: [1, 2, 3])
        for outcome in diverged {
            guard let divergence = outcome.diverged else { continue }
            table.append([
                "[\(outcome.id)](trials/\(outcome.id)/)", "\(outcome.seed)", "\(divergence.epoch)",
                divergence.batch.map { "\($0)" } ?? "", divergence.split, divergence.lossText,
                divergence.tensor.map { "weights `\($0)`" } ?? "loss",
            ])
        }
        return "**\(diverged.count) of \(plan.trials.count) trials diverged**: the loss or the weights became non-finite and training stopped at "
            + "once; they are not scored. Lower `training.learningRate`, or clip with `training.gradientClipNorm`.\n\n"
            + table.markdown + "\n"
    }

    /// `## Charts`: one Markdown image per chart in `charts/`.
    private var chartsSection: String {
        let charts = SweepCharts(plan: plan, leaderboard: leaderboard).charts
        guard !charts.isEmpty else { return "" }
        return "\n## Charts\n\n" + charts.map { "![\($0.caption)](\($0.path))\n" }.joined(separator: "\n")
    }

    /// One line per setting worth seeing at a glance.
    static func settings(_ configuration: ExperimentConfiguration) -> [(String, String)] {
        let w = configuration.windows
        let t = configuration.training
        let m = configuration.model
        let layout = configuration.features.layout
        let augmentation = configuration.augmentation
        return [
            ("layout", "\(layout.name) (\(layout.channelCount) channels × \(layout.jointCount) joints)"),
            ("window", w.sampling == .uniform
                ? "\(w.size) frames per recording, the whole recording resampled (uniform sampling)"
                : "\(w.size) frames = \(NumberFormat.fixed(w.actionDuration, digits: 3)) s at \(w.frameRate) fps, stride \(w.stride), padding \(w.padding.rawValue)"),
            ("augmentation", augmentation.pipeline + (augmentation.steps.isEmpty ? "" : " (\(augmentation.steps.map(\.kind).joined(separator: ", ")))")),
            ("model", "\(m.kind): \(m.settingsDescription)"),
            ("training", "\(t.epochs) epochs, batch \(t.batchSize), \(trainingDescription(t))"),
            ("validation", configuration.dataset.validation.strategy.rawValue),
            ("sequence aggregation", configuration.evaluation.aggregation.rawValue),
            ("seeds", t.seeds.map(String.init).joined(separator: ", ")),
        ]
    }

    /// The optimizer, its learning rate, momentum and weight decay, and the schedule's shape, as
    /// `training.recipe` and the keys beside it resolved them.
    static func trainingDescription(_ t: TrainingConfiguration) -> String {
        var optimizer = "\(t.optimizer.rawValue) lr \(t.learningRate)"
        if t.optimizer == .sgd {
            optimizer += " (momentum \(t.momentum)\(t.nesterov ? ", Nesterov" : ""))"
        }
        return "\(optimizer), weight decay \(t.weightDecay), \(t.schedule.kind.rawValue) schedule"
    }
}