/// Lines through (x, y) points, one colour per series, with a legend: training curves
/// (accuracy or loss against epoch).
///
/// Both axes have ticks at round numbers and cover every point. Each point is a small marker
/// whose tooltip gives the series, x and y (four decimals); series with many points are drawn
/// as lines only. A dashed series reads apart from a solid one in greyscale too.
public struct LineChart: Sendable {
    /// One (x, y) point.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// One named line.
    public struct Series: Sendable, Equatable {
        /// The legend text.
        public var name: String
        /// The points, in drawing order; non-finite points are skipped.
        public var points: [Point]
        /// Whether the line is dashed.
        public var dashed: Bool

        public init(name: String, points: [Point], dashed: Bool = false) {
            self.name = name
            self.points = points
            self.dashed = dashed
        }
    }

    /// The title.
    public var title: String
    /// A second line under the title (what the data is), or nil.
    public var subtitle: String?
    /// The x-axis title, with its unit.
    public var xLabel: String
    /// The y-axis title, with its unit.
    public var yLabel: String
    /// The lines; series without points are left out, legend included.
    public var series: [Series]
    /// Limits of the y axis (such as `0...1` for accuracy), or nil.
    public var yBounds: ClosedRange<Double>?
    /// Whether x ticks are whole numbers (epochs).
    public var integerX: Bool
    /// Canvas width in pixels.
    public var width: Double = 640
    /// Canvas height in pixels.
    public var height: Double = 400

    /// Series with more points than this are drawn without point markers.
    public static let markerLimit = 150

    public init(
        title: String, subtitle: String? = nil, xLabel: String, yLabel: String, series: [Series],
        yBounds: ClosedRange<Double>? = nil, integerX: Bool = false
    ) {
        self.title = title
        self.subtitle = subtitle
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.series = series
        self.yBounds = yBounds
        self.integerX = integerX
    }

    /// The series that are drawn, each with only its finite points.
    private var drawnSeries: [Series] {
        series.map { series in
            var finite = series
            finite.points = series.points.filter { $0.x.isFinite && $0.y.isFinite }
            return finite
        }.filter { !$0.points.isEmpty }
    }

    /// The chart as an SVG document.
    public var document: SVGDocument {
        let drawn = drawnSeries
        let frame = ChartFrame(
            width: width, height: height, title: title, subtitle: subtitle, xLabel: xLabel, yLabel: yLabel,
            legend: drawn.enumerated().map { .init(name: $1.name, color: ChartStyle.color($0), swatch: .line(dash: $1.dashed ? "6 3" : nil)) })
        let points = drawn.flatMap(\.points)
        let x = LinearScale(
            covering: points.map(\.x), range: (frame.plotLeft, frame.plotRight), integerSteps: integerX, extendToTicks: !integerX)
        let y = LinearScale(covering: points.map(\.y), range: (frame.plotBottom, frame.plotTop), bounds: yBounds)

        var document = SVGDocument(width: width, height: height, title: title, summary: summary(drawn))
        document.append(contentsOf: frame.header())
        document.append(contentsOf: frame.axes(x: x, y: y))
        for (index, series) in drawn.enumerated() {
            let color = ChartStyle.color(index)
            let coordinates = series.points.map { "\(SVGElement.number(x.position($0.x))),\(SVGElement.number(y.position($0.y)))" }
            var line: [SVGElement.Attribute] = [
                .init("points", coordinates.joined(separator: " ")), .init("fill", "none"), .init("stroke", color),
                .init("stroke-width", 2), .init("stroke-linejoin", "round"),
            ]
            if series.dashed { line.append(.init("stroke-dasharray", "6 3")) }
            var children = [SVGElement("polyline", line).withTooltip(series.name)]
            if series.points.count <= Self.markerLimit {
                children += series.points.map { point in
                    SVGElement("circle", [.init("cx", x.position(point.x)), .init("cy", y.position(point.y)), .init("r", 2.5), .init("fill", color)])
                        .withTooltip("\(series.name), \(xLabel) \(Self.value(point.x)): \(NumberFormat.fixed(point.y))")
                }
            }
            document.append(SVGElement("g", [.init("aria-label", series.name)], children: children))
        }
        return document
    }

    /// The chart as SVG text.
    public var svg: String { document.xml }

    /// The accessible description: what is plotted and each series' range and last value.
    private func summary(_ drawn: [Series]) -> String {
        let parts = drawn.map { series -> String in
            let values = series.points.map(\.y)
            let last = series.points.last.map { NumberFormat.fixed($0.y) } ?? ""
            return "\(series.name): \(series.points.count) points from \(NumberFormat.fixed(values.min() ?? 0)) to "
                + "\(NumberFormat.fixed(values.max() ?? 0)), last \(last)"
        }
        return "Line chart of \(yLabel) against \(xLabel). " + (parts.isEmpty ? "No data." : parts.joined(separator: "; ") + ".")
    }

    /// An x value as text: whole numbers without decimals.
    private static func value(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? "\(Int(x))" : NumberFormat.fixed(x)
    }
}
