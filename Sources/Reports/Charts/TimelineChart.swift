/// Class probabilities over time for one input stream, with lanes of segments below them: what
/// `actionlab predict` draws as `timeline.svg`.
///
/// The upper plot has one line per class (probability 0...1 against time in seconds), a legend
/// of the class names, and an optional dashed, labelled confidence threshold. Below it, sharing
/// the time axis, each lane (such as "predicted" and "ground truth") holds one bar per segment
/// in its label's colour, with the label written on the bar when it fits and a tooltip giving
/// label, start, end, duration and an optional value (mean confidence); a lane may also mark
/// events (counted repetitions) with small ticks.
///
/// A label has the same colour in the legend, the lines and every lane. Colours cycle through
/// ``ChartStyle/palette``; past its 7 colours a line also changes its dash pattern
/// (``ChartStyle/dash(_:)``) and a bar its hatching, so 27 classes (UTD-MHAD) stay apart.
/// The canvas grows with the stream, ``pixelsPerSecond`` wide per second between
/// ``minimumWidth`` and ``maximumWidth``; longer streams are compressed into the maximum width.
///
/// Each line is one `<path>` of relative moves on a 0.1-pixel grid, thinned without visible
/// change: per pixel column only the first, lowest, highest and last points are kept (M4
/// aggregation: Jugel et al., "M4: A Visualization-Oriented Time Series Data Aggregation",
/// VLDB 2014), then points on a straight line between their neighbours are dropped. A stream
/// of 10,000 predictions thus stays a file of a few hundred kilobytes.
public struct TimelineChart: Sendable {
    /// One prediction's probability of a class, at a time.
    public struct Point: Sendable, Equatable {
        /// Time in seconds from the stream's start (a window's centre time).
        public var time: Double
        /// Probability in [0, 1]; values outside are drawn at the nearer bound, and a
        /// non-finite value breaks the line.
        public var probability: Double

        public init(time: Double, probability: Double) {
            self.time = time
            self.probability = probability
        }
    }

    /// One class's probabilities over time, drawn as one line.
    public struct Series: Sendable, Equatable {
        /// The class name, shown in the legend and matched against segment labels for colour.
        public var name: String
        /// The points, in time order; a point with a non-finite time is skipped.
        public var points: [Point]

        public init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    /// A stretch of time with one label, drawn as a bar.
    public struct Segment: Sendable, Equatable {
        /// The action; its colour is the class's of the same name.
        public var label: String
        /// Start in seconds from the stream's start.
        public var start: Double
        /// End in seconds; a segment whose end is before its start is drawn between the two, a
        /// zero-length one one pixel wide, and one with a non-finite bound is left out.
        public var end: Double
        /// A number shown in the tooltip after the lane's ``Lane/valueLabel`` (such as the mean
        /// confidence), or nil.
        public var value: Double?

        public init(label: String, start: Double, end: Double, value: Double? = nil) {
            self.label = label
            self.start = start
            self.end = end
            self.value = value
        }
    }

    /// A moment marked on a lane, such as one counted repetition.
    public struct Event: Sendable, Equatable {
        /// Time in seconds from the stream's start; an event at a non-finite time is left out.
        public var time: Double
        /// What happened, shown in the tooltip (`squat 3`).
        public var label: String

        public init(time: Double, label: String) {
            self.time = time
            self.label = label
        }
    }

    /// A titled row of segments (and events) under the probability plot.
    public struct Lane: Sendable, Equatable {
        /// The lane's title, written above it ("predicted", "ground truth").
        public var title: String
        /// The segments, drawn in order (later ones on top).
        public var segments: [Segment]
        /// Events marked with ticks across the lane.
        public var events: [Event]
        /// What a segment's ``Segment/value`` is, for its tooltip.
        public var valueLabel: String

        public init(title: String, segments: [Segment], events: [Event] = [], valueLabel: String = "mean confidence") {
            self.title = title
            self.segments = segments
            self.events = events
            self.valueLabel = valueLabel
        }
    }

    /// The title.
    public var title: String
    /// A second line under the title (the input and the model), or nil.
    public var subtitle: String?
    /// One line per class, in the model's label order, which sets the colours.
    public var classes: [Series]
    /// The confidence threshold drawn as a dashed line, in [0, 1], or nil for none.
    public var threshold: Double?
    /// The lanes under the plot, top to bottom.
    public var lanes: [Lane]
    /// The stream's length in seconds: the time axis runs from 0 to it (further if points,
    /// segments or events lie outside). Nil: the extent of the data. An axis of zero length
    /// becomes one second long.
    public var duration: Double?
    /// The time-axis title.
    public var timeLabel = "time (s)"
    /// The probability-axis title.
    public var probabilityLabel = "probability"
    /// Pixels of time axis per second while the canvas is between its bounds.
    public var pixelsPerSecond = 20.0
    /// The narrowest canvas, in pixels.
    public var minimumWidth = 640.0
    /// The widest canvas, in pixels (unless the title needs more).
    public var maximumWidth = 3200.0

    /// Height of the probability plot, in pixels.
    public static let plotHeight = 200.0
    /// Height of a lane's bar, in pixels.
    public static let laneBarHeight = 18.0
    /// Vertical room a lane takes: its title row, its bar and the gap after it, in pixels.
    static let laneHeight = 44.0
    /// Gap between the probability plot and the first lane's title, in pixels.
    static let laneGap = 14.0

    public init(
        title: String, subtitle: String? = nil, classes: [Series], threshold: Double? = nil, lanes: [Lane] = [],
        duration: Double? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.classes = classes
        self.threshold = threshold
        self.lanes = lanes
        self.duration = duration
    }

    /// One series per label from a prediction table: `probabilities[n][k]` is label `k`'s
    /// probability at `times[n]` (seconds); rows shorter than `labels` lack those points.
    /// - Parameters:
    ///   - labels: Class names `[K]`, in the model's order.
    ///   - times: Time of each prediction `[N]`, in seconds.
    ///   - probabilities: Probabilities `[N, K]`; extra rows or columns are ignored.
    public static func series<P: BinaryFloatingPoint>(labels: [String], times: [Double], probabilities: [[P]]) -> [Series] {
        labels.indices.map { k in
            Series(name: labels[k], points: zip(times, probabilities).compactMap { time, row in
                k < row.count ? Point(time: time, probability: Double(row[k])) : nil
            })
        }
    }

    /// The chart as an SVG document.
    public var document: SVGDocument {
        let styles = LabelStyles(classes: classes.map(\.name), lanes: lanes)
        let time = timeDomain
        let plotWidth = self.plotWidth(seconds: time.upperBound - time.lowerBound)
        let legend = styles.legend
        let belowPlot = lanes.isEmpty ? 0 : Self.laneGap + Double(lanes.count) * Self.laneHeight
        let width = max(
            plotWidth + ChartFrame.plotLeft + ChartFrame.rightMargin, ChartStyle.textWidth(title, size: ChartStyle.titleSize) + 32,
            ChartStyle.textWidth(subtitle ?? "", size: ChartStyle.labelSize) + 32)
        let height = ChartFrame.height(plotHeight: Self.plotHeight, width: width, subtitle: subtitle, legend: legend, belowPlot: belowPlot)
        let frame = ChartFrame(
            width: width, height: height, title: title, subtitle: subtitle, xLabel: timeLabel, yLabel: probabilityLabel,
            legend: legend, belowPlot: belowPlot)
        let x = LinearScale(
            covering: [time.lowerBound, time.upperBound], range: (frame.plotLeft, frame.plotRight), extendToTicks: false,
            tickCount: max(5, Int((frame.plotRight - frame.plotLeft) / 90)))
        let y = LinearScale(covering: [0, 1], range: (frame.plotBottom, frame.plotTop), bounds: 0...1)

        var document = SVGDocument(width: width, height: height, title: title, summary: summary(time))
        let patterns = styles.patterns
        if !patterns.isEmpty { document.append(SVGElement("defs", children: patterns)) }
        document.append(contentsOf: frame.header())
        document.append(contentsOf: frame.axes(x: x, y: y))
        for (index, lane) in lanes.enumerated() {
            let top = frame.plotBottom + Self.laneGap + Double(index) * Self.laneHeight
            document.append(laneElement(lane, top: top, frame: frame, x: x, styles: styles))
        }
        let lines = classes.enumerated().compactMap { index, series -> SVGElement? in
            let data = Self.pathData(series.points, x: x, y: y)
            guard !data.isEmpty else { return nil }
            var attributes: [SVGElement.Attribute] = [
                .init("d", data), .init("fill", "none"), .init("stroke", ChartStyle.color(index)), .init("stroke-width", 1.75),
                .init("stroke-linejoin", "round"), .init("stroke-linecap", "round"),
            ]
            if let dash = ChartStyle.dash(index) { attributes.append(.init("stroke-dasharray", dash)) }
            return SVGElement("path", attributes).withTooltip(series.name)
        }
        document.append(SVGElement("g", [.init("aria-label", "class probabilities")], children: lines))
        if let threshold, threshold.isFinite {
            let position = y.position(min(max(threshold, 0), 1))
            document.append(SVGElement("g", [.init("aria-label", "threshold")], children: [
                ChartStyle.line(frame.plotLeft, position, frame.plotRight, position, color: ChartStyle.axisColor, width: 1.25, dash: "5 4"),
                ChartStyle.text(
                    "threshold \(NumberFormat.fixed(threshold, digits: 2))", x: frame.plotRight - 4, y: position - 5,
                    size: ChartStyle.tickSize, anchor: "end", color: ChartStyle.mutedTextColor),
            ]))
        }
        return document
    }

    /// The chart as SVG text.
    public var svg: String { document.xml }

    /// The time axis's extent in seconds: 0 (or the earliest time) to ``duration`` (or the
    /// latest time), one second long when that is empty.
    public var timeDomain: ClosedRange<Double> {
        var times = classes.flatMap { $0.points.map(\.time) }
        for lane in lanes {
            times += lane.segments.flatMap { [$0.start, $0.end] }
            times += lane.events.map(\.time)
        }
        if let duration { times.append(duration) }
        let finite = times.filter(\.isFinite)
        let lower = min(finite.min() ?? 0, 0)
        let upper = max(finite.max() ?? 0, lower)
        return upper > lower ? lower...upper : lower...(lower + 1)
    }

    /// The plot's width for `seconds` of stream: ``pixelsPerSecond`` per second within the
    /// canvas bounds. A non-finite setting falls back to its default, a canvas is at least
    /// 200 px wide, and a maximum below the minimum counts as the minimum.
    private func plotWidth(seconds: Double) -> Double {
        let margins = ChartFrame.plotLeft + ChartFrame.rightMargin
        let narrowest = max(minimumWidth.isFinite ? minimumWidth : 640, 200) - margins
        let widest = max((maximumWidth.isFinite ? maximumWidth : 3200) - margins, narrowest)
        let wanted = seconds * (pixelsPerSecond.isFinite ? max(pixelsPerSecond, 0) : 0)
        return min(max(wanted, narrowest), widest)
    }

    /// One lane: title, background, segment bars with labels and tooltips, event ticks.
    private func laneElement(_ lane: Lane, top: Double, frame: ChartFrame, x: LinearScale, styles: LabelStyles) -> SVGElement {
        let barTop = top + 16
        let barBottom = barTop + Self.laneBarHeight
        var children = [
            ChartStyle.text(lane.title, x: frame.plotLeft, y: top + 12, size: ChartStyle.tickSize, bold: true),
            SVGElement("rect", [
                .init("x", frame.plotLeft), .init("y", barTop), .init("width", frame.plotRight - frame.plotLeft),
                .init("height", Self.laneBarHeight), .init("fill", "#f4f4f4"),
            ]),
        ]
        let segments = lane.segments.filter { $0.start.isFinite && $0.end.isFinite }
        if segments.isEmpty {
            children.append(ChartStyle.text(
                "no segments", x: (frame.plotLeft + frame.plotRight) / 2, y: barTop + 13, size: ChartStyle.tickSize, anchor: "middle",
                color: ChartStyle.mutedTextColor))
        }
        let bars = segments.map { segment -> SVGElement in
            let left = x.position(min(segment.start, segment.end))
            let barWidth = max(x.position(max(segment.start, segment.end)) - left, 1)
            let index = styles.index(of: segment.label)
            var parts = [SVGElement("rect", [
                .init("x", left), .init("y", barTop), .init("width", barWidth), .init("height", Self.laneBarHeight),
                .init("fill", styles.fill(index)),
            ])]
            if ChartStyle.textWidth(segment.label, size: ChartStyle.tickSize) + 8 <= barWidth {
                parts.append(ChartStyle.text(
                    segment.label, x: left + barWidth / 2, y: barTop + 13, size: ChartStyle.tickSize, anchor: "middle",
                    color: ChartStyle.textColor(on: ChartStyle.color(index))))
            }
            var tooltip = "\(segment.label): \(Self.seconds(segment.start)) to \(Self.seconds(segment.end)) "
                + "(\(Self.seconds(abs(segment.end - segment.start))))"
            if let value = segment.value, value.isFinite { tooltip += ", \(lane.valueLabel) \(NumberFormat.fixed(value))" }
            return SVGElement("g", children: parts).withTooltip(tooltip)
        }
        children.append(SVGElement("g", [.init("aria-label", "segments")], children: bars))
        let ticks = lane.events.filter(\.time.isFinite).map { event in
            let position = x.position(event.time)
            return SVGElement("g", children: [
                ChartStyle.line(position, barTop - 3, position, barBottom + 4, color: ChartStyle.textColor, width: 1.5)
            ]).withTooltip("\(event.label) at \(Self.seconds(event.time))")
        }
        if !ticks.isEmpty { children.append(SVGElement("g", [.init("aria-label", "events")], children: ticks)) }
        return SVGElement("g", [.init("aria-label", "lane: \(lane.title)")], children: children)
    }

    /// A time as text: seconds with two decimals and the unit.
    private static func seconds(_ value: Double) -> String {
        "\(NumberFormat.fixed(value, digits: 2)) s"
    }

    /// The accessible description: classes, time span, threshold, and each lane's contents.
    private func summary(_ time: ClosedRange<Double>) -> String {
        let points = classes.map(\.points.count).max() ?? 0
        var text = "Probabilities of \(classes.count) class\(classes.count == 1 ? "" : "es") over time, "
            + "\(Self.seconds(time.lowerBound)) to \(Self.seconds(time.upperBound))"
            + (points == 0 ? ", no predictions" : ", \(points) prediction\(points == 1 ? "" : "s")")
        if let threshold, threshold.isFinite { text += ", threshold \(NumberFormat.fixed(threshold, digits: 2))" }
        text += "."
        for lane in lanes {
            text += " Lane \(lane.title): \(lane.segments.count) segment\(lane.segments.count == 1 ? "" : "s")"
            if !lane.events.isEmpty { text += ", \(lane.events.count) event\(lane.events.count == 1 ? "" : "s")" }
            text += "."
        }
        return text
    }

    /// The `d` attribute of one class's line: an absolute move to the first point, then
    /// relative line segments on a 0.1-pixel grid; a non-finite probability starts a new
    /// subpath, and a lone point becomes a zero-length segment (a dot, with round caps).
    /// Empty when no point has a finite time and probability.
    static func pathData(_ points: [Point], x: LinearScale, y: LinearScale) -> String {
        var runs: [[(Int, Int)]] = [[]]
        for point in points where point.time.isFinite {
            guard point.probability.isFinite else {
                if !(runs.last?.isEmpty ?? true) { runs.append([]) }
                continue
            }
            let grid = (
                Int((x.position(point.time) * 10).rounded()),
                Int((y.position(min(max(point.probability, 0), 1)) * 10).rounded()))
            runs[runs.count - 1].append(grid)
        }
        var data = ""
        for run in runs where !run.isEmpty {
            let kept = straightened(columnExtremes(run))
            guard let first = kept.first else { continue }
            data += "M\(tenths(first.0)) \(tenths(first.1))l"
            if kept.count == 1 {
                data += "0 0"
                continue
            }
            for index in kept.indices.dropFirst() {
                if index > 1 { data += " " }
                data += "\(tenths(kept[index].0 - kept[index - 1].0)) \(tenths(kept[index].1 - kept[index - 1].1))"
            }
        }
        return data
    }

    /// The points of each run of one pixel column reduced to its first, lowest, highest and
    /// last, in their order (Jugel et al. 2014); coordinates are in tenths of a pixel.
    private static func columnExtremes(_ points: [(Int, Int)]) -> [(Int, Int)] {
        var kept: [(Int, Int)] = []
        var start = 0
        while start < points.count {
            let column = floorDivision(points[start].0, 10)
            var end = start
            while end + 1 < points.count && floorDivision(points[end + 1].0, 10) == column { end += 1 }
            var lowest = start, highest = start
            for index in start...end {
                if points[index].1 < points[lowest].1 { lowest = index }
                if points[index].1 > points[highest].1 { highest = index }
            }
            var previous = -1
            for index in [start, lowest, highest, end].sorted() where index != previous {
                kept.append(points[index])
                previous = index
            }
            start = end + 1
        }
        return kept
    }

    /// `points` without repeats and without the middle point of three that lie on one line
    /// in that order (exact on the integer grid, so nothing drawn moves).
    private static func straightened(_ points: [(Int, Int)]) -> [(Int, Int)] {
        var kept: [(Int, Int)] = []
        for point in points {
            if let last = kept.last, last == point { continue }
            if kept.count >= 2 {
                let (a, b) = (kept[kept.count - 2], kept[kept.count - 1])
                let cross = (b.0 - a.0) * (point.1 - b.1) - (b.1 - a.1) * (point.0 - b.0)
                let dot = (b.0 - a.0) * (point.0 - b.0) + (b.1 - a.1) * (point.1 - b.1)
                if cross == 0 && dot > 0 { kept.removeLast() }
            }
            kept.append(point)
        }
        return kept
    }

    /// `value / divisor` rounded towards negative infinity.
    private static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// A length in tenths of a pixel as SVG text (`12.3`, `-0.5`, `40`).
    private static func tenths(_ value: Int) -> String {
        SVGElement.number(Double(value) / 10)
    }
}

/// The colour and fill of every label: classes by their order, then labels found only in
/// lanes by first appearance, so a label looks the same in the legend, the lines and the lanes.
private struct LabelStyles {
    /// The classes' names, in order (a repeated name keeps its own line and legend entry).
    let classNames: [String]
    /// Labels found in lanes and not among the classes, by first appearance; label `i` here
    /// has style index `classNames.count + i`.
    let otherLabels: [String]
    private let indices: [String: Int]
    /// Style indices of the labels drawn as bars.
    private let barIndices: Set<Int>

    init(classes: [String], lanes: [TimelineChart.Lane]) {
        var indices: [String: Int] = [:]
        for (index, label) in classes.enumerated() where indices[label] == nil {
            indices[label] = index
        }
        var otherLabels: [String] = []
        for lane in lanes {
            for segment in lane.segments where indices[segment.label] == nil {
                indices[segment.label] = classes.count + otherLabels.count
                otherLabels.append(segment.label)
            }
        }
        classNames = classes
        self.otherLabels = otherLabels
        self.indices = indices
        barIndices = Set(lanes.flatMap { $0.segments.compactMap { indices[$0.label] } })
    }

    /// The style index of `label` (every label in the lanes has one).
    func index(of label: String) -> Int {
        indices[label] ?? 0
    }

    /// A bar's fill: the palette colour, hatched past the palette's first round.
    func fill(_ index: Int) -> String {
        Self.hatch(index) == nil ? ChartStyle.color(index) : "url(#\(Self.patternID(index)))"
    }

    /// Legend entries: a line per class, then a box per label seen only in lanes.
    var legend: [ChartFrame.LegendEntry] {
        classNames.enumerated().map { index, name in
            .init(name: name, color: ChartStyle.color(index), swatch: .line(dash: ChartStyle.dash(index)))
        } + otherLabels.enumerated().map { offset, name in
            .init(name: name, color: fill(classNames.count + offset), swatch: .box)
        }
    }

    /// `<pattern>`s of the hatched fills in use, in index order.
    var patterns: [SVGElement] {
        barIndices.sorted().compactMap { index in
            guard let hatch = Self.hatch(index) else { return nil }
            let marks: [SVGElement]
            let white: [SVGElement.Attribute] = [.init("stroke", "#ffffff"), .init("stroke-width", 1.5), .init("stroke-opacity", 0.6)]
            switch hatch {
            case 1:
                marks = [
                    SVGElement("line", [.init("x1", 0), .init("y1", 6), .init("x2", 6), .init("y2", 0)] + white),
                    SVGElement("line", [.init("x1", -1), .init("y1", 1), .init("x2", 1), .init("y2", -1)] + white),
                    SVGElement("line", [.init("x1", 5), .init("y1", 7), .init("x2", 7), .init("y2", 5)] + white),
                ]
            case 2:
                marks = [SVGElement("circle", [.init("cx", 3), .init("cy", 3), .init("r", 1.3), .init("fill", "#ffffff"), .init("fill-opacity", 0.7)])]
            default:
                marks = [SVGElement("line", [.init("x1", 0), .init("y1", 3), .init("x2", 6), .init("y2", 3)] + white)]
            }
            return SVGElement(
                "pattern", [.init("id", Self.patternID(index)), .init("patternUnits", "userSpaceOnUse"), .init("width", 6), .init("height", 6)],
                children: [SVGElement("rect", [.init("width", 6), .init("height", 6), .init("fill", ChartStyle.color(index))])] + marks)
        }
    }

    /// 0 for none (the palette's first round), then 1 diagonal, 2 dots, 3 horizontal stripes:
    /// the same rounds as ``ChartStyle/dash(_:)``.
    private static func hatch(_ index: Int) -> Int? {
        let round = (max(index, 0) / ChartStyle.palette.count) % ChartStyle.dashPatterns.count
        return round == 0 ? nil : round
    }

    private static func patternID(_ index: Int) -> String { "timeline-fill-\(index)" }
}
