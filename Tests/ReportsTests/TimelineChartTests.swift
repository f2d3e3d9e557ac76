import ActionLabTestSupport
import Foundation
import Reports
import Testing

@Suite struct TimelineChartTests {
    /// The 27 actions of UTD-MHAD, in the dataset's order.
    static let utdMHADActions = [
        "swipe left", "swipe right", "wave", "clap", "throw", "arm cross", "basketball shoot", "draw x",
        "draw circle (clockwise)", "draw circle (counter clockwise)", "draw triangle", "bowling", "boxing", "baseball swing",
        "tennis swing", "arm curl", "tennis serve", "push", "knock", "catch", "pickup and throw", "jog", "walk",
        "sit to stand", "stand to sit", "lunge", "squat",
    ]

    /// Three classes over 20 s, a prediction every 0.5 s; "walk" leads from 2 to 9 s, "jog"
    /// from 11 to 18 s; lanes "predicted" (with two counted events) and "ground truth".
    static func stream() -> TimelineChart {
        let labels = ["standing", "walk", "jog"]
        let times = (0..<40).map { Double($0) * 0.5 + 0.25 }
        let probabilities = times.map { time -> [Double] in
            let walk = (2...9).contains(time) ? 0.8 : 0.1
            let jog = (11...18).contains(time) ? 0.85 : 0.05
            return [max(0, 1 - walk - jog), walk, jog]
        }
        return TimelineChart(
            title: "subject 2, stream 1", subtitle: "stgcn, stride 10, threshold 0.6",
            classes: TimelineChart.series(labels: labels, times: times, probabilities: probabilities), threshold: 0.6,
            lanes: [
                .init(
                    title: "predicted",
                    segments: [.init(label: "walk", start: 2, end: 9, value: 0.8), .init(label: "jog", start: 11, end: 18.5, value: 0.85)],
                    events: [.init(time: 2, label: "walk 1"), .init(time: 11, label: "jog 1")]),
                .init(title: "ground truth", segments: [
                    .init(label: "standing", start: 0, end: 1.5), .init(label: "walk", start: 1.5, end: 9.5),
                    .init(label: "jog", start: 10.5, end: 18),
                ]),
            ],
            duration: 20)
    }

    /// The parsed document with helpers to find the chart's parts by their accessible labels.
    struct Parsed {
        let xml: ParsedXML

        init(_ svg: String) throws { xml = try ParsedXML.parse(svg) }

        var nodes: [ParsedXML.Node] { xml.nodes }

        /// The first `<g>` whose `aria-label` is `label`.
        func group(_ label: String) -> Int? {
            nodes.indices.first { nodes[$0].name == "g" && nodes[$0].attributes["aria-label"] == label }
        }

        func children(_ index: Int, named name: String) -> [Int] {
            xml.children(of: index).filter { nodes[$0].name == name }
        }

        func number(_ index: Int, _ attribute: String) -> Double? {
            nodes[index].attributes[attribute].flatMap(Double.init)
        }

        /// The lane's title, its background rectangle, and each segment's rectangle and tooltip.
        func lane(_ title: String) throws -> (title: String, background: Int, bars: [(rect: Int, tooltip: String)]) {
            let lane = try #require(group("lane: \(title)"), "no lane \(title)")
            let text = try #require(children(lane, named: "text").first)
            let background = try #require(children(lane, named: "rect").first)
            let segments = try #require(children(lane, named: "g").first { nodes[$0].attributes["aria-label"] == "segments" })
            let bars = try children(segments, named: "g").map { bar in
                (rect: try #require(children(bar, named: "rect").first), tooltip: nodes[try #require(children(bar, named: "title").first)].text)
            }
            return (nodes[text].text, background, bars)
        }

        /// The class lines, in order.
        var paths: [Int] {
            group("class probabilities").map { children($0, named: "path") } ?? []
        }

        /// y of the horizontal gridlines, in tick order (probability 0 first).
        var horizontalGridlines: [Double] {
            guard let grid = nodes.indices.first(where: { nodes[$0].attributes["aria-hidden"] == "true" }) else { return [] }
            return children(grid, named: "line").compactMap { line in
                number(line, "y1") == number(line, "y2") ? number(line, "y1") : nil
            }
        }
    }

    /// The absolute vertices of each subpath of a `d` written as `M x y l dx dy dx dy ...`.
    static func vertices(_ d: String) throws -> [[(Double, Double)]] {
        var subpaths: [[(Double, Double)]] = []
        for part in d.split(separator: "M") {
            let halves = part.split(separator: "l", maxSplits: 1)
            let start = halves[0].split(separator: " ").compactMap { Double($0) }
            try #require(start.count == 2 && halves.count == 2, "bad subpath \(part)")
            let deltas = halves[1].split(separator: " ").compactMap { Double($0) }
            try #require(deltas.count % 2 == 0)
            var point = (start[0], start[1])
            var vertices = [point]
            for index in stride(from: 0, to: deltas.count, by: 2) {
                point = (point.0 + deltas[index], point.1 + deltas[index + 1])
                vertices.append(point)
            }
            subpaths.append(vertices)
        }
        return subpaths
    }

    @Test func isWellFormedAccessibleSVG() throws {
        let svg = Self.stream().svg
        let parsed = try Parsed(svg)
        #expect(Array(parsed.xml.elements.prefix(3)) == ["svg", "title", "desc"])
        #expect(svg.contains("role=\"img\""))
        #expect(parsed.xml.texts.contains("subject 2, stream 1") && parsed.xml.texts.contains("stgcn, stride 10, threshold 0.6"))
        #expect(parsed.xml.texts.contains("time (s)") && parsed.xml.texts.contains("probability"))
        let desc = try #require(parsed.nodes.first { $0.name == "desc" })
        #expect(desc.text == "Probabilities of 3 classes over time, 0.00 s to 20.00 s, 40 predictions, threshold 0.60. "
            + "Lane predicted: 2 segments, 2 events. Lane ground truth: 3 segments.")
        #expect(!svg.contains(try Regex("[=\" ,(]-?[0-9.]+[eE][+-]?[0-9]")), "numbers print without exponents")
        #expect(!svg.contains(try Regex("\\b(nan|inf)\\b")))
    }

    @Test func sameInputGivesTheSameBytes() {
        #expect(Self.stream().svg == Self.stream().svg)
        var many = Self.stream()
        many.classes = Self.noisySeries(classes: Self.utdMHADActions, count: 500)
        #expect(many.svg == many.svg)
    }

    @Test func eachClassIsOnePathInItsColourWithALegendEntry() throws {
        let parsed = try Parsed(Self.stream().svg)
        let paths = parsed.paths
        #expect(paths.count == 3)
        #expect(paths.map { parsed.nodes[$0].attributes["stroke"] } == (0..<3).map { ChartStyle.color($0) })
        #expect(paths.map { parsed.nodes[parsed.children($0, named: "title")[0]].text } == ["standing", "walk", "jog"])
        let legend = try #require(parsed.group("legend"))
        #expect(parsed.children(legend, named: "text").map { parsed.nodes[$0].text } == ["standing", "walk", "jog"])
        // The line runs from the first prediction's time to the last one's, proportional to time.
        let lane = try parsed.lane("predicted")
        let left = try #require(parsed.number(lane.background, "x"))
        let width = try #require(parsed.number(lane.background, "width"))
        let walk = try Self.vertices(try #require(parsed.nodes[paths[1]].attributes["d"]))
        #expect(walk.count == 1)
        let first = try #require(walk[0].first), last = try #require(walk[0].last)
        #expect(abs(first.0 - (left + 0.25 / 20 * width)) <= 0.1)
        #expect(abs(last.0 - (left + 19.75 / 20 * width)) <= 0.1)
    }

    @Test func barsSitAtTheirSegmentsTimesInTheirClassColour() throws {
        let chart = Self.stream()
        let parsed = try Parsed(chart.svg)
        #expect(chart.timeDomain == 0...20)
        for lane in chart.lanes {
            let drawn = try parsed.lane(lane.title)
            #expect(drawn.title == lane.title)
            let left = try #require(parsed.number(drawn.background, "x"))
            let width = try #require(parsed.number(drawn.background, "width"))
            #expect(drawn.bars.count == lane.segments.count)
            for (bar, segment) in zip(drawn.bars, lane.segments) {
                let x = try #require(parsed.number(bar.rect, "x"))
                let barWidth = try #require(parsed.number(bar.rect, "width"))
                #expect(abs(x - (left + segment.start / 20 * width)) <= 0.5, "\(segment)")
                #expect(abs(x + barWidth - (left + segment.end / 20 * width)) <= 0.5, "\(segment)")
                let classIndex = try #require(["standing", "walk", "jog"].firstIndex(of: segment.label))
                #expect(parsed.nodes[bar.rect].attributes["fill"] == ChartStyle.color(classIndex))
            }
        }
        let predicted = try parsed.lane("predicted")
        #expect(predicted.bars.map(\.tooltip) == [
            "walk: 2.00 s to 9.00 s (7.00 s), mean confidence 0.8000", "jog: 11.00 s to 18.50 s (7.50 s), mean confidence 0.8500",
        ])
        #expect(try parsed.lane("ground truth").bars[0].tooltip == "standing: 0.00 s to 1.50 s (1.50 s)")
        // Labels are written on bars wide enough for them.
        #expect(parsed.xml.texts.filter { $0 == "walk" }.count == 4)  // legend, the line's tooltip, two bars
    }

    @Test func eventsAreTicksOnTheirLane() throws {
        let parsed = try Parsed(Self.stream().svg)
        let lane = try #require(parsed.group("lane: predicted"))
        let events = try #require(parsed.children(lane, named: "g").first { parsed.nodes[$0].attributes["aria-label"] == "events" })
        let ticks = parsed.children(events, named: "g")
        #expect(ticks.map { parsed.nodes[parsed.children($0, named: "title")[0]].text } == ["walk 1 at 2.00 s", "jog 1 at 11.00 s"])
        let bars = try parsed.lane("predicted").bars
        for (tick, bar) in zip(ticks, bars) {
            // Each count marks its segment's start.
            let line = try #require(parsed.children(tick, named: "line").first)
            #expect(parsed.number(line, "x1") == parsed.number(bar.rect, "x"))
        }
        #expect(parsed.group("lane: ground truth").map { parsed.children($0, named: "g").count } == 1)  // segments only
    }

    @Test func thresholdIsADashedLineAtItsProbability() throws {
        let parsed = try Parsed(Self.stream().svg)
        let gridlines = parsed.horizontalGridlines
        #expect(gridlines.count == 6)  // 0, 0.2, ..., 1
        let (zero, one) = (try #require(gridlines.first), try #require(gridlines.last))
        let threshold = try #require(parsed.group("threshold"))
        let line = try #require(parsed.children(threshold, named: "line").first)
        #expect(parsed.nodes[line].attributes["stroke-dasharray"] != nil)
        let y = try #require(parsed.number(line, "y1"))
        #expect(parsed.number(line, "y2") == y)
        #expect(abs(y - (zero + 0.6 * (one - zero))) <= 0.01)
        #expect(parsed.nodes[parsed.children(threshold, named: "text")[0]].text == "threshold 0.60")
        var none = Self.stream()
        none.threshold = nil
        #expect(try Parsed(none.svg).group("threshold") == nil)
    }

    @Test func textIsEscaped() throws {
        let nasty = "a<b & \"c\" > d'"
        let chart = TimelineChart(
            title: nasty, subtitle: "<&>", classes: [.init(name: nasty, points: [.init(time: 0, probability: 0.5), .init(time: 1, probability: 0.7)])],
            threshold: 0.5,
            lanes: [.init(
                title: "lane <1> & \"2\"", segments: [.init(label: nasty, start: 0, end: 1, value: 0.6)],
                events: [.init(time: 0.5, label: "<count> & 1")])])
        let svg = chart.svg
        let parsed = try Parsed(svg)
        for text in [nasty, "<&>", "lane <1> & \"2\"", "<count> & 1 at 0.50 s", "\(nasty): 0.00 s to 1.00 s (1.00 s), mean confidence 0.6000"] {
            #expect(parsed.xml.texts.contains(text), "missing \(text)")
        }
        #expect(parsed.group("lane: lane <1> & \"2\"") != nil)
        #expect(svg.contains("a&lt;b &amp; \"c\" &gt; d'"))
        #expect(svg.contains("aria-label=\"lane: lane &lt;1&gt; &amp; &quot;2&quot;\""))
    }

    @Test func twentySevenClassesStayDistinctAndTheLegendWraps() throws {
        let classes = Self.utdMHADActions
        let segments = classes.indices.map { TimelineChart.Segment(label: classes[$0], start: Double($0) * 4, end: Double($0) * 4 + 3) }
        let chart = TimelineChart(
            title: "UTD-MHAD stream", classes: Self.noisySeries(classes: classes, count: 300), threshold: 0.6,
            lanes: [.init(title: "predicted", segments: segments), .init(title: "ground truth", segments: segments)], duration: 110)
        let svg = chart.svg
        let parsed = try Parsed(svg)
        let paths = parsed.paths
        #expect(paths.count == 27)
        let styles = paths.map { "\(parsed.nodes[$0].attributes["stroke"] ?? "") \(parsed.nodes[$0].attributes["stroke-dasharray"] ?? "solid")" }
        #expect(Set(styles).count == 27, "line styles repeat: \(styles)")
        // Legend: 27 entries on several rows, none past the canvas's right edge.
        let width = try #require(parsed.number(0, "width"))
        let legend = try #require(parsed.group("legend"))
        let entries = parsed.children(legend, named: "text")
        #expect(entries.map { parsed.nodes[$0].text } == classes)
        let rows = Set(entries.compactMap { parsed.number($0, "y") })
        #expect(rows.count >= 2)
        for entry in entries {
            let right = try #require(parsed.number(entry, "x")) + ChartStyle.textWidth(parsed.nodes[entry].text, size: ChartStyle.labelSize)
            #expect(right <= width - 24 + 0.01, "\(parsed.nodes[entry].text) ends at \(right) of \(width)")
        }
        // The plot starts below the last legend row.
        let top = try #require(parsed.horizontalGridlines.last)
        #expect(try #require(rows.max()) < top)
        // Bars: 27 distinct fills, the same in both lanes; hatched ones refer to defined patterns.
        let predicted = try parsed.lane("predicted").bars.map { parsed.nodes[$0.rect].attributes["fill"] ?? "" }
        let truth = try parsed.lane("ground truth").bars.map { parsed.nodes[$0.rect].attributes["fill"] ?? "" }
        #expect(Set(predicted).count == 27)
        #expect(predicted == truth)
        let patterns = Set(parsed.nodes.filter { $0.name == "pattern" }.compactMap { $0.attributes["id"] })
        #expect(patterns.count == 20)
        for fill in predicted where fill.hasPrefix("url(") {
            #expect(patterns.contains(String(fill.dropFirst(5).dropLast())), "\(fill) is not defined")
        }
        #expect(predicted.prefix(7).allSatisfy { $0.hasPrefix("#") })
    }

    @Test func labelsOutsideTheClassesGetTheirOwnColour() throws {
        var chart = Self.stream()
        chart.lanes[1].segments.append(.init(label: "background", start: 18, end: 20))
        let parsed = try Parsed(chart.svg)
        let fill = try parsed.lane("ground truth").bars.last.map { parsed.nodes[$0.rect].attributes["fill"] }
        #expect(fill == ChartStyle.color(3))
        let legend = try #require(parsed.group("legend"))
        #expect(parsed.children(legend, named: "text").map { parsed.nodes[$0].text } == ["standing", "walk", "jog", "background"])
    }

    @Test func widthGrowsWithDurationWithinBounds() throws {
        func width(_ duration: Double) throws -> Double {
            let chart = TimelineChart(title: "t", classes: [], lanes: [.init(title: "predicted", segments: [])], duration: duration)
            return try #require(Parsed(chart.svg).number(0, "width"))
        }
        #expect(try width(10) == 640)
        #expect(try width(100) == 100 * 20 + 96)
        #expect(try width(150) == 150 * 20 + 96)
        #expect(try width(10_000) == 3200)
    }

    @Test func edgeCasesGiveValidCharts() throws {
        // No classes, no lanes, no duration: a one-second empty axis.
        let empty = TimelineChart(title: "empty", classes: [])
        #expect(empty.timeDomain == 0...1)
        let parsedEmpty = try Parsed(empty.svg)
        #expect(parsedEmpty.paths.isEmpty)
        #expect(parsedEmpty.nodes.first { $0.name == "desc" }?.text.contains("no predictions") == true)
        // A class without points gets a legend entry and no line; a lane without segments says so.
        let quiet = TimelineChart(
            title: "quiet", classes: [.init(name: "a", points: []), .init(name: "b", points: [.init(time: 0.5, probability: 0.9)])],
            lanes: [.init(title: "predicted", segments: [])], duration: 0)
        let parsed = try Parsed(quiet.svg)
        #expect(parsed.paths.count == 1)
        #expect(try parsed.lane("predicted").bars.isEmpty)
        #expect(parsed.xml.texts.contains("no segments"))
        // One point: a zero-length line, drawn as a dot by its round caps.
        let d = try #require(parsed.paths.first.flatMap { parsed.nodes[$0].attributes["d"] })
        #expect(d.hasSuffix("l0 0"))
        #expect(parsed.nodes[parsed.paths[0]].attributes["stroke-linecap"] == "round")
        // A zero-length stream and zero-length segment.
        let instant = TimelineChart(
            title: "instant", classes: [.init(name: "a", points: [.init(time: 0, probability: 1)])],
            lanes: [.init(title: "predicted", segments: [.init(label: "a", start: 0, end: 0)])], duration: 0)
        #expect(instant.timeDomain == 0...1)
        let bar = try #require(try Parsed(instant.svg).lane("predicted").bars.first)
        #expect(try Parsed(instant.svg).number(bar.rect, "width") == 1)
        // Non-finite values: skipped points, a broken line, no NaN in the output.
        let gappy = TimelineChart(
            title: "gaps", classes: [.init(name: "a", points: [
                .init(time: 0, probability: 0.2), .init(time: 1, probability: 0.4), .init(time: 2, probability: .nan),
                .init(time: .infinity, probability: 0.5), .init(time: 3, probability: 0.6), .init(time: 4, probability: 1.7),
            ])],
            lanes: [.init(title: "predicted", segments: [.init(label: "a", start: .nan, end: 1, value: .nan)])])
        let gappySVG = gappy.svg
        let gappyParsed = try Parsed(gappySVG)
        let subpaths = try Self.vertices(try #require(gappyParsed.paths.first.flatMap { gappyParsed.nodes[$0].attributes["d"] }))
        #expect(subpaths.map(\.count) == [2, 2])
        let gridlines = gappyParsed.horizontalGridlines
        #expect(subpaths.last?.last.map { abs($0.1 - (gridlines.last ?? 0)) <= 0.1 } == true, "1.7 is drawn at probability 1")
        #expect(gappy.timeDomain == 0...4)
        #expect(!gappySVG.contains(try Regex("\\b(nan|inf)\\b")))
    }

    /// Probabilities that change at every prediction (a deterministic hash, not a smooth curve).
    static func noisySeries(classes: [String], count: Int) -> [TimelineChart.Series] {
        classes.indices.map { k in
            TimelineChart.Series(name: classes[k], points: (0..<count).map { n in
                let hash = sin(Double(n * 31 + k * 7919) * 12.9898) * 43758.5453
                return .init(time: Double(n) / 3, probability: hash - hash.rounded(.down))
            })
        }
    }

    @Test func tenThousandPredictionsStaySmallAndKeepEveryColumnsExtent() throws {
        let classes = ["a", "b", "c", "d"]
        let series = Self.noisySeries(classes: classes, count: 10_000)
        let chart = TimelineChart(title: "long stream", classes: series, threshold: 0.6, lanes: [.init(title: "predicted", segments: [])])
        let svg = chart.svg
        #expect(svg.utf8.count < 400_000, "\(svg.utf8.count) bytes")
        let parsed = try Parsed(svg)
        #expect(try #require(parsed.number(0, "width")) == 3200)
        let paths = parsed.paths
        #expect(paths.count == 4)
        // M4's promise: in every pixel column the drawn line spans the same heights as the line
        // through every point (on the same 0.1-pixel grid), and it starts and ends at the same points.
        let lane = try parsed.lane("predicted")
        let left = try #require(parsed.number(lane.background, "x"))
        let width = try #require(parsed.number(lane.background, "width"))
        let gridlines = parsed.horizontalGridlines
        let x = LinearScale(covering: [chart.timeDomain.lowerBound, chart.timeDomain.upperBound], range: (left, left + width), extendToTicks: false)
        let y = LinearScale(covering: [0, 1], range: (try #require(gridlines.first), try #require(gridlines.last)), bounds: 0...1)
        for (path, data) in zip(paths, series) {
            let subpaths = try Self.vertices(try #require(parsed.nodes[path].attributes["d"]))
            #expect(subpaths.count == 1)
            let drawn = subpaths[0]
            #expect(drawn.count < data.points.count)
            let full = data.points.map { ((x.position($0.time) * 10).rounded() / 10, (y.position($0.probability) * 10).rounded() / 10) }
            #expect(abs((drawn.first?.0 ?? 0) - (full.first?.0 ?? 1)) < 1e-6 && abs((drawn.last?.0 ?? 0) - (full.last?.0 ?? 1)) < 1e-6)
            let expected = Self.columnExtents(full), actual = Self.columnExtents(drawn)
            #expect(Set(actual.keys) == Set(expected.keys))
            let mismatched = expected.filter { column, extent in
                guard let drawn = actual[column] else { return true }
                return abs(drawn.lower - extent.lower) > 0.01 || abs(drawn.upper - extent.upper) > 0.01
            }
            #expect(mismatched.count == 0, "of \(expected.count) columns")
        }
    }

    /// The lowest and highest y of a polyline (x increasing) within each pixel column
    /// `c ≤ x ≤ c + 1`, segments clipped to the column.
    static func columnExtents(_ polyline: [(Double, Double)]) -> [Int: (lower: Double, upper: Double)] {
        var extents: [Int: (lower: Double, upper: Double)] = [:]
        func add(_ column: Int, _ value: Double) {
            let extent = extents[column] ?? (value, value)
            extents[column] = (min(extent.lower, value), max(extent.upper, value))
        }
        func column(_ x: Double) -> Int { Int((x + 1e-6).rounded(.down)) }
        for point in polyline { add(column(point.0), point.1) }
        for (p, q) in zip(polyline, polyline.dropFirst()) where q.0 > p.0 {
            for c in column(p.0)...column(q.0) {
                for edge in [max(p.0, Double(c)), min(q.0, Double(c + 1))] {
                    add(c, p.1 + (q.1 - p.1) * (edge - p.0) / (q.0 - p.0))
                }
            }
        }
        return extents
    }

    @Test func seriesTransposesAPredictionTable() {
        let series = TimelineChart.series(labels: ["a", "b"], times: [0.5, 1.5, 2.5], probabilities: [[0.25, 0.75], [1, 0], [0.5]] as [[Float]])
        #expect(series.map(\.name) == ["a", "b"])
        #expect(series[0].points == [.init(time: 0.5, probability: 0.25), .init(time: 1.5, probability: 1), .init(time: 2.5, probability: 0.5)])
        #expect(series[1].points == [.init(time: 0.5, probability: 0.75), .init(time: 1.5, probability: 0)])
    }

    @Test func labelTextContrastsWithItsBar() {
        #expect(ChartStyle.textColor(on: "#0072B2") == "#ffffff")
        #expect(ChartStyle.textColor(on: "#000000") == "#ffffff")
        #expect(ChartStyle.textColor(on: "#E69F00") == ChartStyle.textColor)
        #expect(ChartStyle.textColor(on: "#ffffff") == ChartStyle.textColor)
        #expect(ChartStyle.textColor(on: "not a colour") == ChartStyle.textColor)
        #expect((0..<28).map { "\(ChartStyle.color($0)) \(ChartStyle.dash($0) ?? "")" }.count == 28)
        #expect(Set((0..<28).map { "\(ChartStyle.color($0)) \(ChartStyle.dash($0) ?? "")" }).count == 28)
    }
}
