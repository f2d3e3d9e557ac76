/// The parts every x–y chart shares: title and subtitle, legend, plot area, gridlines, axes
/// with tick labels, and axis titles.
///
/// The frame computes the plot area from the canvas size and what must fit around it (legend
/// rows, rotated category labels, lanes between the plot and the x axis); charts then draw
/// their data inside ``plotLeft`` ... ``plotRight`` × ``plotTop`` ... ``plotBottom``. A legend
/// wider than the plot wraps onto further rows.
struct ChartFrame {
    /// One legend entry: a name and how its swatch looks.
    struct LegendEntry {
        /// A line (with an SVG `stroke-dasharray`, or nil for solid), a filled square, a dot.
        enum Swatch { case line(dash: String?), box, dot }
        var name: String
        var color: String
        var swatch: Swatch
    }

    /// A category on a categorical x axis: its label and centre in pixels.
    struct Category {
        var label: String
        var center: Double
    }

    var width: Double
    var height: Double
    var title: String
    var subtitle: String?
    var xLabel: String
    var yLabel: String
    var legend: [LegendEntry]

    /// Left edge of the plot area, after the y tick labels and the y-axis title.
    let plotLeft: Double
    /// Right edge of the plot area.
    let plotRight: Double
    /// Top edge of the plot area, below the title, subtitle and legend.
    let plotTop: Double
    /// Bottom edge of the plot area.
    let plotBottom: Double
    /// The x axis line, with its ticks and tick labels below it: ``plotBottom`` unless room was
    /// made between the plot and the axis.
    let xAxisY: Double
    /// Each legend entry's left edge and row (0 is the top row).
    private let legendPlaces: [(x: Double, row: Int)]

    /// Height of a legend row after the first, in pixels.
    private static let legendRowHeight = 18.0

    /// A frame with room below the plot for x tick labels `xLabelHeight` pixels tall, and
    /// `belowPlot` pixels between the plot and the x axis (lanes that share the x axis).
    init(
        width: Double = 640, height: Double = 400, title: String, subtitle: String?, xLabel: String, yLabel: String,
        legend: [LegendEntry] = [], xLabelHeight: Double = ChartStyle.tickSize, belowPlot: Double = 0
    ) {
        self.width = width
        self.height = height
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.legend = legend
        plotLeft = Self.plotLeft
        plotRight = width - Self.rightMargin
        legendPlaces = Self.placeLegend(legend, left: plotLeft, right: plotRight)
        plotTop = Self.topOfPlot(width: width, subtitle: subtitle, legend: legend)
        xAxisY = height - (xLabelHeight + 44)
        plotBottom = xAxisY - max(belowPlot, 0)
    }

    /// Left edge of the plot area in every frame, in pixels.
    static let plotLeft = 72.0
    /// Room right of the plot area, in pixels.
    static let rightMargin = 24.0

    /// The canvas height whose plot area is `plotHeight` pixels tall, for the other arguments
    /// as given to ``init(width:height:title:subtitle:xLabel:yLabel:legend:xLabelHeight:belowPlot:)``.
    static func height(
        plotHeight: Double, width: Double, subtitle: String?, legend: [LegendEntry], xLabelHeight: Double = ChartStyle.tickSize,
        belowPlot: Double = 0
    ) -> Double {
        topOfPlot(width: width, subtitle: subtitle, legend: legend) + plotHeight + max(belowPlot, 0) + xLabelHeight + 44
    }

    /// Top edge of the plot area: below the title, the subtitle and every legend row.
    private static func topOfPlot(width: Double, subtitle: String?, legend: [LegendEntry]) -> Double {
        var top = 38.0
        if subtitle != nil { top += 18 }
        let rows = (placeLegend(legend, left: plotLeft, right: width - rightMargin).last?.row ?? -1) + 1
        if rows > 0 { top += 24 + Double(rows - 1) * legendRowHeight }
        return top + 8
    }

    /// The width an entry takes in the legend row: swatch, name and the gap after it.
    private static func legendWidth(_ entry: LegendEntry) -> Double {
        28 + ChartStyle.textWidth(entry.name, size: ChartStyle.labelSize) + 18
    }

    /// Entries placed left to right from `left`, a new row when the next one would pass `right`
    /// (an entry wider than the plot gets a row of its own).
    private static func placeLegend(_ legend: [LegendEntry], left: Double, right: Double) -> [(x: Double, row: Int)] {
        var places: [(x: Double, row: Int)] = []
        var (x, row) = (left, 0)
        for entry in legend {
            let entryWidth = legendWidth(entry)
            if x > left && x + entryWidth - 18 > right {
                (x, row) = (left, row + 1)
            }
            places.append((x, row))
            x += entryWidth
        }
        return places
    }

    /// The baseline of legend row `row`; the last row sits 14 pixels above the plot.
    private func legendY(row: Int) -> Double {
        let rows = (legendPlaces.last?.row ?? 0) + 1
        return plotTop - 14 - Double(rows - 1 - row) * Self.legendRowHeight
    }

    /// Title, subtitle and legend.
    func header() -> [SVGElement] {
        var elements = [ChartStyle.text(title, x: width / 2, y: 24, size: ChartStyle.titleSize, anchor: "middle", bold: true)]
        if let subtitle {
            elements.append(ChartStyle.text(subtitle, x: width / 2, y: 42, size: ChartStyle.labelSize, anchor: "middle", color: ChartStyle.mutedTextColor))
        }
        var items: [SVGElement] = []
        for (entry, place) in zip(legend, legendPlaces) {
            let (x, y) = (place.x, legendY(row: place.row))
            switch entry.swatch {
            case .line(let dash):
                items.append(ChartStyle.line(x, y - 4, x + 22, y - 4, color: entry.color, width: 2.5, dash: dash))
            case .box:
                items.append(SVGElement("rect", [.init("x", x + 5), .init("y", y - 10), .init("width", 12), .init("height", 12), .init("fill", entry.color)]))
            case .dot:
                items.append(SVGElement("circle", [.init("cx", x + 11), .init("cy", y - 4), .init("r", 4), .init("fill", entry.color)]))
            }
            items.append(ChartStyle.text(entry.name, x: x + 28, y: y, size: ChartStyle.labelSize))
        }
        if !items.isEmpty { elements.append(SVGElement("g", [.init("aria-label", "legend")], children: items)) }
        return elements
    }

    /// Gridlines, axis lines, ticks, tick labels and axis titles; x gridlines run down to the x
    /// axis, through the room below the plot.
    /// - Parameters:
    ///   - x: The x scale, or nil for a categorical axis.
    ///   - categories: The categories of a categorical x axis.
    ///   - rotateCategories: Whether category labels are rotated 35° to fit.
    ///   - y: The y scale.
    func axes(x: LinearScale?, categories: [Category] = [], rotateCategories: Bool = false, y: LinearScale) -> [SVGElement] {
        var grid: [SVGElement] = []
        var ticks: [SVGElement] = []
        for value in y.ticks {
            let position = y.position(value)
            grid.append(ChartStyle.line(plotLeft, position, plotRight, position, color: ChartStyle.gridColor))
            ticks.append(ChartStyle.line(plotLeft - 5, position, plotLeft, position, color: ChartStyle.axisColor))
            ticks.append(ChartStyle.text(
                y.label(value), x: plotLeft - 8, y: position + 4, size: ChartStyle.tickSize, anchor: "end", color: ChartStyle.mutedTextColor))
        }
        if let x {
            for value in x.ticks {
                let position = x.position(value)
                grid.append(ChartStyle.line(position, plotTop, position, xAxisY, color: ChartStyle.gridColor))
                ticks.append(ChartStyle.line(position, xAxisY, position, xAxisY + 5, color: ChartStyle.axisColor))
                ticks.append(ChartStyle.text(
                    x.label(value), x: position, y: xAxisY + 18, size: ChartStyle.tickSize, anchor: "middle", color: ChartStyle.mutedTextColor))
            }
        }
        for category in categories {
            ticks.append(ChartStyle.line(category.center, plotBottom, category.center, plotBottom + 5, color: ChartStyle.axisColor))
            ticks.append(rotateCategories
                ? ChartStyle.text(category.label, x: category.center + 4, y: plotBottom + 16, size: ChartStyle.tickSize, anchor: "end",
                                  color: ChartStyle.textColor, rotation: -35)
                : ChartStyle.text(category.label, x: category.center, y: plotBottom + 18, size: ChartStyle.tickSize, anchor: "middle",
                                  color: ChartStyle.textColor))
        }
        var axisLines = [
            ChartStyle.line(plotLeft, plotTop, plotLeft, plotBottom, color: ChartStyle.axisColor),
            ChartStyle.line(plotLeft, plotBottom, plotRight, plotBottom, color: ChartStyle.axisColor),
        ]
        if xAxisY > plotBottom {
            axisLines.append(ChartStyle.line(plotLeft, xAxisY, plotRight, xAxisY, color: ChartStyle.axisColor))
        }
        let titles = [
            ChartStyle.text(xLabel, x: (plotLeft + plotRight) / 2, y: height - 12, size: ChartStyle.labelSize, anchor: "middle"),
            ChartStyle.text(yLabel, x: 18, y: (plotTop + plotBottom) / 2, size: ChartStyle.labelSize, anchor: "middle", rotation: -90),
        ]
        return [
            SVGElement("g", [.init("aria-hidden", "true")], children: grid),
            SVGElement("g", [.init("aria-label", "axes")], children: axisLines + ticks + titles),
        ]
    }
}
