import ActionLabTestSupport
import Foundation
import Reports
import Testing

/// The HTML builder of the reports: escaping, tables, inline charts, a page that loads nothing.
@Suite struct HTMLTests {
    @Test func textAndAttributesFromUserDataAreEscaped() {
        let hostile = "<script>alert(\"x\")</script> & 'quotes'"
        let node = HTMLNode.element("p", [.init("title", hostile)], [.text(hostile), .link(hostile, to: "a\"b<c>.html")])
        let html = node.html
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'quotes'"))
        #expect(html.contains("title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'quotes'\""))
        #expect(html.contains("href=\"a&quot;b&lt;c&gt;.html\""))
        // The page title too, and nothing of it survives as markup.
        let page = HTMLDocument(title: hostile, body: []).html
        #expect(page.components(separatedBy: "<script>").count == 2, "only the page's own script")
    }

    @Test func tableKeepsRowOrderAlignsNumbersAndTakesAColumn() throws {
        var table = Table(header: ["rank", "augmentation", "accuracy"], numericColumns: [0, 2])
        table.append(["1", "full", "0.9000 ± 0.0100"])
        table.append(["2", "<none>", "0.8000"])
        let html = try #require(HTMLTable(table, sortable: true, id: "board").appendingColumn("trials", cells: [[.link("t1", to: "t1.html")], [.text("")]]))
        #expect(HTMLTable(table).appendingColumn("x", cells: []) == nil, "one cell per row")
        let text = html.node.html
        #expect(text.hasPrefix("<table id=\"board\" class=\"sortable\">"))
        #expect(text.contains("<th class=\"number\" scope=\"col\">accuracy</th>"))
        #expect(text.contains("<td>&lt;none&gt;</td>"))
        let first = try #require(text.range(of: "<td>full</td>"))
        let second = try #require(text.range(of: "<td>&lt;none&gt;</td>"))
        #expect(first.lowerBound < second.lowerBound, "rows in the given order")
        #expect(text.contains("<td><a href=\"t1.html\">t1</a></td>"))
    }

    @Test func inlineChartsHaveUniqueIdsAndThePageLoadsNothing() throws {
        let chart = LineChart(
            title: "a <b>", subtitle: "s", xLabel: "epoch", yLabel: "accuracy",
            series: [.init(name: "training", points: [.init(x: 1, y: 0.5), .init(x: 2, y: 0.75)])], yBounds: 0...1, integerX: true)
        let page = HTMLDocument(title: "t", body: [.svg(chart.document, idPrefix: "chart0"), .svg(chart.document, idPrefix: "chart1")]).html
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(!page.contains("<?xml"), "no XML declaration inside HTML")
        for id in ["chart0-title", "chart0-desc", "chart1-title", "chart1-desc"] {
            #expect(page.components(separatedBy: "id=\"\(id)\"").count == 2, "\(id) once")
        }
        #expect(page.contains("aria-labelledby=\"chart1-title chart1-desc\""))
        #expect(page.contains("<title id=\"chart0-title\">a &lt;b&gt;</title>"))
        // The standalone SVG is unchanged: same ids as before inlining existed.
        #expect(chart.svg.contains("aria-labelledby=\"chart-title chart-desc\""))
        // Self-contained: no source, style sheet or font from elsewhere; only the SVG namespace URL.
        for reference in ["src=", "<link", "url(", "@import", "@font-face"] { #expect(!page.contains(reference), "\(reference)") }
        #expect(page.components(separatedBy: "://").count - 1 == page.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1)
    }
}
