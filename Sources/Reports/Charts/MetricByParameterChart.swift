/// A metric against the values of one swept parameter: the mean over every trial with each
/// value, with error bars of ± one sample standard deviation, and each configuration's own
/// mean as a small dot beside it.
///
/// Numeric parameters (every value a number, such as `windows.duration`) get a scaled x axis
/// with points joined by a line, so uneven spacing shows; other parameters (`augmentation`)
/// get one bar per value in grid order, bars starting at zero. Tooltips give the value, the
/// mean ± std, and how many trials and configurations it summarizes.
public struct MetricByParameterChart: Sendable {
    /// Everything measured with one value of the parameter.
    public struct Group: Sendable, Equatable {
        /// The value as shown (`2.5`, `full`).
        public var label: String
        /// The value as a number, nil for a categorical value.
        public var numericValue: Double?
        /// Mean of the metric over the group's trials.
        public var mean: Double
        /// Sample standard deviation over the group's trials (0 for one).
        public var standardDeviation: Double
        /// Trials in the group.
        public var trials: Int
        /// Each configuration with this value: its label (the other swept values) and mean.
        public var configurations: [(label: String, mean: Double)]

        public init(
            label: String, numericValue: Double?, mean: Double, standardDeviation: Double, trials: Int,
            configurations: [(label: String, mean: Double)] = []
        ) {
            self.label = label
            self.numericValue = numericValue
            self.mean = mean
            self.standardDeviation = standardDeviation
            self.trials = trials
            self.configurations = configurations
        }

        public static func == (lhs: Group, rhs: Group) -> Bool {
            lhs.label == rhs.label && lhs.numericValue == rhs.numericValue && lhs.mean == rhs.mean
                && lhs.standardDeviation == rhs.standardDeviation && lhs.trials == rhs.trials
                && lhs.configurations.map(\.label) == rhs.configurations.map(\.label)
                && lhs.configurations.map(\.mean) == rhs.configurations.map(\.mean)
        }
    }

    /// The title.
    public var title: String
    /// A second line under the title, or nil.
    public var subtitle: String?
    /// The x-axis title: the parameter, with its unit.
    public var parameterLabel: String
    /// The y-axis title: the metric.
    public var metricLabel: String
    /// One group per parameter value, in grid order.
    public var groups: [Group]
    /// Limits of the y axis (`0...1` for accuracy and F1), or nil.
    public var yBounds: ClosedRange<Double>?
    /// Canvas width in pixels.
    public var width: Double = 640
    /// Canvas height in pixels.
    public var height: Double = 400

    public init(
        title: String, subtitle: String? = nil, parameterLabel: String, metricLabel: String, groups: [Group],
        yBounds: ClosedRange<Double>? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.parameterLabel = parameterLabel
        self.metricLabel = metricLabel
        self.groups = groups
        self.yBounds = yBounds
    }

    /// Whether the x axis is numeric: every value is a finite number.
    public var isNumeric: Bool {
        !groups.isEmpty && groups.allSatisfy { $0.numericValue?.isFinite == true }
    }

    private static let meanColor = ChartStyle.color(0)
    private static let configurationColor = "#7f7f7f"

    /// The chart as an SVG document.
    public var document: SVGDocument {
        let numeric = isNumeric
        let bandWidth = (width - 96) / Double(max(groups.count, 1))
        let widest = groups.map { ChartStyle.textWidth($0.label, size: ChartStyle.tickSize) }.max() ?? 0
        let rotate = !numeric && widest > bandWidth - 8
        var legend: [ChartFrame.LegendEntry] = [
            .init(name: "mean ± std over trials", color: Self.meanColor, swatch: numeric ? .dot : .box)
        ]
        if groups.contains(where: { $0.configurations.count > 1 }) {
            legend.append(.init(name: "one configuration (mean over seeds)", color: Self.configurationColor, swatch: .dot))
        }
        let frame = ChartFrame(
            width: width, height: height, title: title, subtitle: subtitle, xLabel: parameterLabel, yLabel: metricLabel,
            legend: legend, xLabelHeight: rotate ? widest * 0.58 + 8 : ChartStyle.tickSize)
        let extents = groups.flatMap { [errorBar($0).lower, errorBar($0).upper] + $0.configurations.map(\.mean) }
        let y = LinearScale(covering: extents, range: (frame.plotBottom, frame.plotTop), bounds: yBounds, includeZero: !numeric)

        var document = SVGDocument(width: width, height: height, title: title, summary: summary)
        document.append(contentsOf: frame.header())
        if numeric {
            let x = LinearScale(covering: groups.compactMap(\.numericValue), range: (frame.plotLeft + 24, frame.plotRight - 24))
            document.append(contentsOf: frame.axes(x: x, y: y))
            let sorted = groups.sorted { ($0.numericValue ?? 0) < ($1.numericValue ?? 0) }
            let line = sorted.map { "\(SVGElement.number(x.position($0.numericValue ?? 0))),\(SVGElement.number(y.position($0.mean)))" }
            document.append(SVGElement("polyline", [
                .init("points", line.joined(separator: " ")), .init("fill", "none"), .init("stroke", Self.meanColor),
                .init("stroke-width", 2), .init("stroke-linejoin", "round"),
            ]))
            for group in groups {
                document.append(marks(group, center: x.position(group.numericValue ?? 0), y: y, bar: nil))
            }
        } else {
            let categories = groups.indices.map { ChartFrame.Category(label: groups[$0].label, center: frame.plotLeft + bandWidth * (Double($0) + 0.5)) }
            document.append(contentsOf: frame.axes(x: nil, categories: categories, rotateCategories: rotate, y: y))
            for (group, category) in zip(groups, categories) {
                document.append(marks(group, center: category.center, y: y, bar: min(bandWidth * 0.6, 120)))
            }
        }
        return document
    }

    /// The chart as SVG text.
    public var svg: String { document.xml }

    /// One group's bar (if `bar` gives its width) or point, error bar and configuration dots.
    private func marks(_ group: Group, center: Double, y: LinearScale, bar: Double?) -> SVGElement {
        let top = y.position(errorBar(group).upper)
        let bottom = y.position(errorBar(group).lower)
        let meanY = y.position(group.mean)
        var children: [SVGElement] = []
        if let bar {
            let zero = y.position(max(0, y.domain.lowerBound))
            children.append(SVGElement("rect", [
                .init("x", center - bar / 2), .init("y", min(meanY, zero)), .init("width", bar), .init("height", abs(zero - meanY)),
                .init("fill", Self.meanColor), .init("fill-opacity", 0.8),
            ]))
        }
        if group.standardDeviation > 0 {
            children += [
                ChartStyle.line(center, top, center, bottom, color: ChartStyle.textColor, width: 1.5),
                ChartStyle.line(center - 6, top, center + 6, top, color: ChartStyle.textColor, width: 1.5),
                ChartStyle.line(center - 6, bottom, center + 6, bottom, color: ChartStyle.textColor, width: 1.5),
            ]
        }
        if bar == nil {
            children.append(SVGElement("circle", [.init("cx", center), .init("cy", meanY), .init("r", 4.5), .init("fill", Self.meanColor)]))
        } else {
            // The mean inside the bar's foot, where neither the error bar nor the legend can cover it.
            let zero = y.position(max(0, y.domain.lowerBound))
            let inside = abs(zero - meanY) > 24
            children.append(ChartStyle.text(
                NumberFormat.fixed(group.mean, digits: 3), x: center - 8, y: inside ? zero - 8 : min(zero, meanY) - 6,
                size: ChartStyle.tickSize, anchor: "end", color: inside ? "#ffffff" : ChartStyle.textColor, bold: inside))
        }
        if group.configurations.count > 1 {
            let offset = bar.map { $0 / 2 + 8 } ?? 12
            for configuration in group.configurations {
                children.append(SVGElement("circle", [
                    .init("cx", center + offset), .init("cy", y.position(configuration.mean)), .init("r", 3),
                    .init("fill", Self.configurationColor), .init("fill-opacity", 0.7),
                ]).withTooltip("\(configuration.label): \(NumberFormat.fixed(configuration.mean))"))
            }
        }
        let configurations = max(group.configurations.count, 1)
        return SVGElement("g", [.init("aria-label", "\(parameterLabel) \(group.label)")], children: children).withTooltip(
            "\(group.label): \(metricLabel) \(NumberFormat.fixed(group.mean)) ± \(NumberFormat.fixed(group.standardDeviation)) "
                + "(\(group.trials) trial\(group.trials == 1 ? "" : "s"), \(configurations) configuration\(configurations == 1 ? "" : "s"))")
    }

    /// The ends of a group's error bar, mean ± std, cut to ``yBounds`` (accuracy stops at 1).
    private func errorBar(_ group: Group) -> (lower: Double, upper: Double) {
        let lower = group.mean - group.standardDeviation
        let upper = group.mean + group.standardDeviation
        guard let yBounds else { return (lower, upper) }
        return (max(lower, min(yBounds.lowerBound, group.mean)), min(upper, max(yBounds.upperBound, group.mean)))
    }

    /// The accessible description: every value's mean ± std.
    private var summary: String {
        let parts = groups.map { "\($0.label): \(NumberFormat.fixed($0.mean)) ± \(NumberFormat.fixed($0.standardDeviation))" }
        return "\(isNumeric ? "Points" : "Bars") of \(metricLabel) by \(parameterLabel), mean ± sample standard deviation over trials. "
            + (parts.isEmpty ? "No data." : parts.joined(separator: "; ") + ".")
    }
}
