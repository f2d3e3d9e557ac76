import Manifest
import Reports
import Training

/// `report.html` of a trial folder: the trial's settings and swept values, its scores per
/// split, its accuracy and loss curves and a confusion heatmap (windows) per split, inline,
/// with links to the trial's files and back to the sweep's page.
///
/// Written with the trial's other files into its partial folder (``TrialRunner``), so a
/// finished trial folder always has it. One self-contained file (``HTMLDocument``).
public struct TrialPage {
    /// The trial.
    public var trial: Trial
    /// The configuration it trained with.
    public var configuration: ExperimentConfiguration
    /// Its curves and metrics.
    public var report: RunReport
    /// Where its loss became non-finite, if it did (then there are no metrics).
    public var diverged: Divergence?

    public init(trial: Trial, configuration: ExperimentConfiguration, report: RunReport, diverged: Divergence? = nil) {
        self.trial = trial
        self.configuration = configuration
        self.report = report
        self.diverged = diverged
    }

    /// The page.
    public var document: HTMLDocument {
        let name = configuration.name
        var body: [HTMLNode] = [
            .element("nav", [], [
                .link("sweep report", to: "../../\(SweepPage.fileName)"), .text(" · "), .link("config.json", to: "config.json"),
                .text(" · "), .link("metrics.json", to: "metrics.json"), .text(" · "), .link("curves.csv", to: "curves.csv"),
                .text(" · "), .link("provenance.json", to: "provenance.json"),
            ]),
            .element("p", text: "Trial \(trial.id) (number \(trial.index) of the sweep, configuration \(trial.cell)), seed \(trial.seed)."),
        ]
        body.append(.element("h2", text: "Settings"))
        var settings = Table(header: ["setting", "value"])
        for value in trial.values { settings.append([value.path + " (swept)", value.displayValue]) }
        for (key, value) in SweepSummary.settings(configuration) { settings.append([key, value]) }
        body.append(HTMLTable(settings).node)

        body.append(.element("h2", text: "Scores"))
        if let diverged {
            body.append(.element("p", text: "The loss became non-finite (\(diverged)); the trial is not scored."))
        } else {
            var scores = Table(
                header: ["split", "accuracy (windows)", "macro-F1 (windows)", "accuracy (sequences)", "macro-F1 (sequences)", "windows", "sequences"],
                numericColumns: Set(1...6))
            for split in RunReport.splitOrder {
                guard let metrics = report.metrics[split] else { continue }
                scores.append([
                    split, NumberFormat.fixed(metrics.window.accuracy), NumberFormat.fixed(metrics.window.macroF1),
                    NumberFormat.fixed(metrics.sequence.accuracy), NumberFormat.fixed(metrics.sequence.macroF1),
                    "\(metrics.window.count)", "\(metrics.sequence.count)",
                ])
            }
            body.append(HTMLTable(scores).node)
        }

        let subtitle = SweepCharts.subtitle(id: trial.id, seed: trial.seed, values: trial.values)
        var charts: [(document: SVGDocument, caption: String, path: String?)] = [
            (SweepCharts.curves(report.history, name: name, subtitle: subtitle, loss: false).document, "Accuracy against epoch", "curves.md"),
            (SweepCharts.curves(report.history, name: name, subtitle: subtitle, loss: true).document, "Loss against epoch", "curves.md"),
        ]
        for split in RunReport.splitOrder {
            guard let metrics = report.metrics[split] else { continue }
            charts.append((SweepCharts.confusion(metrics.window.confusion, split: split, name: name, subtitle: subtitle).document,
                           "Confusion matrix, \(split) (windows)", "confusion_\(split).md"))
        }
        body.append(.element("h2", text: "Curves and confusion matrices"))
        body += SweepPage.figures(charts)
        return HTMLDocument(title: "\(name): trial \(trial.id)", body: body)
    }

    /// The page as HTML text.
    public var html: String { document.html }
}
