import Reports

/// `report.html` of a sweep folder: ``SweepSummary``'s settings, grid, leaderboard (sortable by
/// any column, one row per configuration, with links to each seed's trial page), tables per
/// swept parameter, the best configuration's scores, and the charts of ``SweepCharts`` inline.
///
/// One self-contained file (``HTMLDocument``): it loads nothing and reads without JavaScript.
public struct SweepPage {
    /// What `summary.md` holds.
    public var summary: SweepSummary
    /// The drawn charts, in ``SweepCharts/charts`` order (``SweepCharts/documents(in:)``).
    public var charts: [(chart: SweepCharts.Chart, document: SVGDocument)]

    /// The page's file name, in the sweep folder and in each trial folder.
    public static let fileName = "report.html"

    public init(summary: SweepSummary, charts: [(chart: SweepCharts.Chart, document: SVGDocument)]) {
        self.summary = summary
        self.charts = charts
    }

    /// The page.
    public var document: HTMLDocument {
        let plan = summary.plan
        let leaderboard = summary.leaderboard
        var body: [HTMLNode] = [
            .element("nav", [], [
                .link("summary.md", to: "summary.md"), .text(" · "), .link("leaderboard.csv", to: "leaderboard.csv"),
                .text(" · "), .link(SweepRecord.manifestCopyName, to: SweepRecord.manifestCopyName), .text(" · "),
                .link(SweepRecord.resolvedConfigurationName, to: SweepRecord.resolvedConfigurationName),
            ]),
        ]
        if !plan.base.description.isEmpty { body.append(.element("p", text: plan.base.description)) }
        body.append(.element("p", text: summary.introduction))
        if summary.missing > 0 {
            body.append(.element("p", [], [.element("strong", text: "\(summary.missing) of \(plan.trials.count) trials have not finished"),
                                          .text("; rerun actionlab run on this folder to complete them.")]))
        }
        let diverged = leaderboard.rows.flatMap(\.diverged)
        if !diverged.isEmpty {
            body.append(.element("p", [], [.element("strong", text: "\(diverged.count) of \(plan.trials.count) trials diverged")]
                + [.text(": their loss became non-finite; they are not scored: ")]
                + diverged.flatMap { [Self.trialLink($0.id), .text(" ")] }))
        }
        body.append(.element("h2", text: "Settings"))
        body.append(HTMLTable(summary.settingsTable).node)
        if !summary.splitMethods.isEmpty {
            body.append(.element("h2", text: "Data splits"))
            body.append(.element("ul", [], summary.splitMethods.map { .element("li", text: $0) }))
        }
        if !plan.sweep.axes.isEmpty {
            body.append(.element("h2", text: "Grid"))
            body.append(HTMLTable(summary.gridTable).node)
        }
        body.append(.element("h2", text: "Leaderboard"))
        body.append(.element("p", [], [
            .text("One row per configuration, mean ± sample standard deviation over seeds, in rank order; click a header to sort "
                  + "by it (mean ± std by the mean). "),
            .link("leaderboard.csv", to: "leaderboard.csv"), .text(" has every column."),
        ]))
        let trialLinks: [[HTMLNode]] = leaderboard.rows.map { row in
            row.outcomes.enumerated().flatMap { index, outcome in (index == 0 ? [] : [.text(", ")]) + [Self.trialLink(outcome.id)] }
        }
        let table = HTMLTable(leaderboard.markdownTable, sortable: true, id: "leaderboard")
        body.append((table.appendingColumn("trials", cells: trialLinks) ?? table).node)
        for (parameter, table) in leaderboard.parameterTables() where !plan.sweep.axes.isEmpty {
            body.append(.element("h3", text: "By \(parameter)"))
            body.append(.element("p", text: "Means over every configuration and seed with each value."))
            body.append(HTMLTable(table, sortable: true).node)
        }
        if let best = leaderboard.rows.first, let metrics = summary.bestMetricsTable {
            body.append(.element("h2", text: plan.sweep.axes.isEmpty ? "Results" : "Best configuration"))
            if !best.values.isEmpty {
                body.append(.element("p", text: best.values.map(\.assignment).joined(separator: ", ")))
            }
            if let data = summary.bestDataTable { body.append(HTMLTable(data).node) }
            body.append(.element("p", text: summary.bestMetricsNote))
            body.append(HTMLTable(metrics).node)
        } else {
            body.append(.element("p", text: "No trial has finished."))
        }
        if !charts.isEmpty {
            body.append(.element("h2", text: "Charts"))
            body += Self.figures(charts.map { ($0.document, $0.chart.caption, $0.chart.path) })
        }
        return HTMLDocument(title: plan.base.name, body: body)
    }

    /// The page as HTML text.
    public var html: String { document.html }

    /// A link from the sweep page to a trial's page: `trials/<id>/report.html`.
    static func trialLink(_ id: String) -> HTMLNode {
        .link(id, to: "trials/\(id)/\(fileName)")
    }

    /// Inline charts, each in a `<figure>` with its caption and a link to its SVG file (if any).
    /// - Parameter charts: `(document, caption, path of the SVG file relative to the page or nil)`.
    static func figures(_ charts: [(document: SVGDocument, caption: String, path: String?)]) -> [HTMLNode] {
        charts.enumerated().map { index, chart in
            var caption: [HTMLNode] = [.text(chart.caption)]
            if let path = chart.path { caption += [.text(" ("), .link("SVG", to: path), .text(")")] }
            return .element("figure", [], [.svg(chart.document, idPrefix: "chart\(index)"), .element("figcaption", [], caption)])
        }
    }
}
