import ActionLabTestSupport
import Foundation
import Reports
import Testing
import Training

@Suite struct SVGChartTests {
    static func curves() -> LineChart {
        LineChart(
            title: "Accuracy", subtitle: "trial abc, seed 1", xLabel: "epoch", yLabel: "accuracy (fraction of windows)",
            series: [
                .init(name: "train", points: (1...20).map { .init(x: Double($0), y: 1 - 0.7 / Double($0)) }),
                .init(name: "validation", points: (1...20).map { .init(x: Double($0), y: 0.95 - 0.6 / Double($0)) }, dashed: true),
            ],
            yBounds: 0...1, integerX: true)
    }

    static func heatmap(labels: [String] = ["standing", "walking", "running", "badminton"]) -> Heatmap {
        let counts = labels.indices.map { row in labels.indices.map { column in row == column ? 9 : (column == (row + 1) % labels.count ? 1 : 0) } }
        return Heatmap(title: "Test confusion", matrix: ConfusionMatrix(labels: labels, counts: counts)!)
    }

    static func byParameter(numeric: Bool) -> MetricByParameterChart {
        let groups: [MetricByParameterChart.Group] = numeric
            ? ([(2.5, 0.81, 0.05), (5, 0.93, 0.03), (10, 0.975, 0.01)] as [(Double, Double, Double)]).map { value, mean, std in
                .init(label: "\(value)", numericValue: value, mean: mean, standardDeviation: std, trials: 9,
                      configurations: [("augmentation=none", mean - 0.02), ("augmentation=full", mean + 0.01)])
            }
            : [("none", 0.9), ("full", 0.95), ("noise", 0.97)].map { label, mean in
                .init(label: label, numericValue: nil, mean: mean, standardDeviation: 0.02, trials: 9)
            }
        return MetricByParameterChart(
            title: "validation accuracy by parameter", parameterLabel: numeric ? "windows.duration (s)" : "augmentation",
            metricLabel: "validation accuracy", groups: groups, yBounds: 0...1)
    }

    static let all: [(String, @Sendable () -> String)] = [
        ("line", { curves().svg }), ("heatmap", { heatmap().svg }),
        ("numeric", { byParameter(numeric: true).svg }), ("categorical", { byParameter(numeric: false).svg }),
    ]

    @Test(arguments: all.indices)
    func chartsAreWellFormedAccessibleSVG(index: Int) throws {
        let (name, make) = Self.all[index]
        let svg = make()
        let parsed = try ParsedXML.parse(svg)
        #expect(parsed.elements.first == "svg", "\(name)")
        #expect(Array(parsed.elements.prefix(3)) == ["svg", "title", "desc"], "\(name): title and description come first")
        #expect(svg.contains("role=\"img\""), "\(name)")
        #expect(parsed.elements.contains("text"), "\(name): labels are SVG text")
        let exponent = try Regex("[=\" ,(]-?[0-9.]+[eE][+-]?[0-9]")
        let nonFinite = try Regex("\\b(nan|inf)\\b")
        #expect(!svg.contains(exponent), "\(name): numbers print without exponents")
        #expect(!svg.contains(nonFinite), "\(name): no non-finite numbers")
    }

    @Test(arguments: all.indices)
    func sameDataGivesTheSameBytes(index: Int) {
        let (name, make) = Self.all[index]
        #expect(make() == make(), "\(name)")
    }

    @Test func lineChartShowsItsLabelsLegendAndTooltips() throws {
        let parsed = try ParsedXML.parse(Self.curves().svg)
        for text in ["Accuracy", "trial abc, seed 1", "epoch", "accuracy (fraction of windows)", "train", "validation"] {
            #expect(parsed.texts.contains(text), "missing \(text)")
        }
        #expect(parsed.texts.contains("validation, epoch 20: 0.9200"))
        #expect(parsed.elements.filter { $0 == "circle" }.count == 40)
        // Epoch ticks are whole numbers; accuracy ticks stay within [0, 1].
        #expect(parsed.texts.contains("20") && parsed.texts.contains("1.0") && !parsed.texts.contains("1.2"))
    }

    @Test func heatmapCellsCarryCountsAndRowShares() throws {
        let heatmap = Self.heatmap()
        let parsed = try ParsedXML.parse(heatmap.svg)
        #expect(parsed.texts.filter { $0 == "9" }.count == 4)
        #expect(parsed.texts.contains("true standing, predicted walking: 1 of 10 (10.0 %)"))
        #expect(heatmap.rowFraction(0, 0) == 0.9)
        // Long labels are rotated, short ones are not.
        #expect(Self.heatmap(labels: ["a", "b"]).svg.contains("rotate(-35") == false)
        #expect(Self.heatmap(labels: ["a very long activity name", "b"]).svg.contains("rotate(-35"))
    }

    @Test func metricChartIsNumericOnlyWhenEveryValueIsANumber() throws {
        #expect(Self.byParameter(numeric: true).isNumeric)
        #expect(!Self.byParameter(numeric: false).isNumeric)
        let parsed = try ParsedXML.parse(Self.byParameter(numeric: false).svg)
        #expect(parsed.elements.filter { $0 == "rect" }.count >= 3)
        #expect(parsed.texts.contains("full: validation accuracy 0.9500 ± 0.0200 (9 trials, 1 configuration)"))
        let numeric = try ParsedXML.parse(Self.byParameter(numeric: true).svg)
        #expect(numeric.texts.contains("augmentation=full: 0.9850"))
    }

    @Test func textIsEscaped() throws {
        let nasty = "a<b & \"c\" > d'"
        let chart = LineChart(
            title: nasty, xLabel: "x <unit>", yLabel: "y & z", series: [.init(name: nasty, points: [.init(x: 0, y: 1), .init(x: 1, y: 2)])])
        let svg = chart.svg
        let parsed = try ParsedXML.parse(svg)
        #expect(parsed.texts.contains(nasty))
        #expect(parsed.texts.contains("x <unit>"))
        #expect(parsed.texts.contains("y & z"))
        #expect(svg.contains("a&lt;b &amp; \"c\" &gt; d'"))
        let heatmap = Heatmap(title: "t", matrix: ConfusionMatrix(labels: [nasty, "<&>"], counts: [[1, 0], [0, 1]])!)
        let parsedHeatmap = try ParsedXML.parse(heatmap.svg)
        #expect(parsedHeatmap.texts.contains("<&>"))
        let attribute = SVGElement("g", [.init("aria-label", nasty)]).xml()
        #expect(attribute == "<g aria-label=\"a&lt;b &amp; &quot;c&quot; &gt; d'\"/>\n")
    }

    @Test func smallDocumentMatchesItsGoldenText() {
        var document = SVGDocument(width: 100, height: 50.5, title: "T & t", summary: "One line.")
        document.append(SVGElement("line", [.init("x1", 0.125), .init("y1", -0.001), .init("x2", 99.999), .init("y2", 12)]))
        document.append(SVGElement("g", children: [SVGElement("text", [.init("x", 1)], text: "<a>")]).withTooltip("tip"))
        #expect(document.xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100" height="50.5" viewBox="0 0 100 50.5" \
            role="img" aria-labelledby="chart-title chart-desc" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
              <title id="chart-title">T &amp; t</title>
              <desc id="chart-desc">One line.</desc>
              <rect width="100%" height="100%" fill="#ffffff"/>
              <line x1="0.13" y1="0" x2="100" y2="12"/>
              <g>
                <title>tip</title>
                <text x="1">&lt;a&gt;</text>
              </g>
            </svg>

            """)
    }

    /// Data sets with their expected tick step: the domain covers the data, ticks are round
    /// numbers inside the domain.
    static let scaleCases: [([Double], ClosedRange<Double>?, Double)] = [
        ([0.25, 0.5, 0.97], 0...1, 0.2),
        ([0.91, 0.94, 0.99], 0...1, 0.02),
        ([1, 1, 1], 0...1, 0.02),
        ([0, 0], nil, 0.5),
        ([2.5, 5, 10], nil, 2),
        ([1.3862, 0.05, 0.002], nil, 0.5),
        ([-3, 17], nil, 5),
        ([1e-4, 3e-4], nil, 0.00005),
    ]

    @Test(arguments: scaleCases.indices)
    func scaleDomainCoversTheDataWithRoundTicks(index: Int) {
        let (values, bounds, step) = Self.scaleCases[index]
        let scale = LinearScale(covering: values, range: (0, 100), bounds: bounds)
        for value in values { #expect(scale.domain.contains(value), "\(value) outside \(scale.domain)") }
        if let bounds { #expect(bounds.lowerBound <= scale.domain.lowerBound && scale.domain.upperBound <= bounds.upperBound) }
        #expect(abs(scale.step - step) <= 1e-12 * step, "step \(scale.step), expected \(step)")
        let ticks = scale.ticks
        #expect(ticks.count >= 2, "\(ticks)")
        for tick in ticks {
            #expect(scale.domain.contains(tick))
            #expect(abs((tick / scale.step).rounded() - tick / scale.step) < 1e-9, "tick \(tick) is not a multiple of \(scale.step)")
        }
        #expect(scale.position(scale.domain.lowerBound) == 0 && scale.position(scale.domain.upperBound) == 100)
    }

    @Test func tickLabelsUseJustEnoughDecimals() {
        #expect(LinearScale(covering: [0, 100], range: (0, 1)).label(40) == "40")
        #expect(LinearScale(covering: [0, 1], range: (0, 1)).label(0.4) == "0.4")
        #expect(LinearScale(covering: [0.9, 1], range: (0, 1)).label(0.92) == "0.92")
        #expect(LinearScale(covering: [1, 3], range: (0, 1), integerSteps: true, extendToTicks: false).ticks == [1, 2, 3])
    }

    @Test func numbersPrintWithFixedPrecision() {
        #expect(SVGElement.number(12.5) == "12.5")
        #expect(SVGElement.number(40) == "40")
        #expect(SVGElement.number(-0.001) == "0")
        #expect(SVGElement.number(1.0 / 3.0) == "0.33")
        #expect(SVGElement.number(.nan) == "0")
        #expect(SVGElement.number(1e300) == "1000000000")
    }
}
