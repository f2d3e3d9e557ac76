/// The parts every x–y chart shares: title and subtitle, legend, plot area, gridlines, axes
/// with tick labels, and axis titles.
///
/// The frame computes the plot area from the canvas size and what must fit around it (a
/// legend row, rotated category labels); charts then draw their data inside ``plotLeft`` ...
/// ``plotRight`` × ``plotTop`` ... ``plotBottom``.
struct ChartFrame {
    /// One legend entry: a name and how its swatch looks.
    struct LegendEntry {
        enum Swatch { case line(dashed: Bool), box, dot }
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
    /// Bottom edge of the plot area, above the x tick labels and the x-axis title.
    let plotBottom: Double

    /// A frame with room below the plot for x tick labels `xLabelHeight` pixels tall.
    init(
        width: Double = 640, height: Double = 400, title: String, subtitle: String?, xLabel: String, yLabel: String,
        legend: [LegendEntry] = [], xLabelHeight: Double = ChartStyle.tickSize
    ) {
        self.width = width
        self.height = height
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.legend = legend
        plotLeft = 72
        plotRight = width - 24
        var top = 38.0
        if subtitle != nil { top += 18 }
        if !legend.isEmpty { top += 24 }
        plotTop = top + 8
        plotBottom = height - (xLabelHeight + 44)
    }

    /// The y coordinate of the legend row.
    private var legendY: Double { plotTop - 14 }

    /// Title, subtitle and legend.
    func header() -> [SVGElement] {
        var elements = [ChartStyle.text(title, x: width / 2, y: 24, size: ChartStyle.titleSize, anchor: "middle", bold: true)]
        if let subtitle {
            elements.append(ChartStyle.text(subtitle, x: width / 2, y: 42, size: ChartStyle.labelSize, anchor: "middle", color: ChartStyle.mutedTextColor))
        }
        var x = plotLeft
        var items: [SVGElement] = []
        for entry in legend {
            let y = legendY
            switch entry.swatch {
            case .line(let dashed):
                items.append(ChartStyle.line(x, y - 4, x + 22, y - 4, color: entry.color, width: 2.5, dash: dashed ? "6 3" : nil))
            case .box:
                items.append(SVGElement("rect", [.init("x", x + 5), .init("y", y - 10), .init("width", 12), .init("height", 12), .init("fill", entry.color)]))
            case .dot:
                items.append(SVGElement("circle", [.init("cx", x + 11), .init("cy", y - 4), .init("r", 4), .init("fill", entry.color)]))
            }
            items.append(ChartStyle.text(entry.name, x: x + 28, y: y, size: ChartStyle.labelSize))
            x += 28 + ChartStyle.textWidth(entry.name, size: ChartStyle.labelSize) + 18
        }
        if !items.isEmpty { elements.append(SVGElement("g", [.init("aria-label", "legend")], children: items)) }
        return elements
    }

    /// Gridlines, axis lines, ticks, tick labels and axis titles.
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
                grid.append(ChartStyle.line(position, plotTop, position, plotBottom, color: ChartStyle.gridColor))
                ticks.append(ChartStyle.line(position, plotBottom, position, plotBottom + 5, color: ChartStyle.axisColor))
                ticks.append(ChartStyle.text(
                    x.label(value), x: position, y: plotBottom + 18, size: ChartStyle.tickSize, anchor: "middle", color: ChartStyle.mutedTextColor))
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
        let axisLines = [
            ChartStyle.line(plotLeft, plotTop, plotLeft, plotBottom, color: ChartStyle.axisColor),
            ChartStyle.line(plotLeft, plotBottom, plotRight, plotBottom, color: ChartStyle.axisColor),
        ]
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
