import ActionLabTestSupport
import Foundation
import Sweeps
import SweepTestSupport
import Testing

/// `report.html` of a real sweep (the shared BasicMotions sweep: 9 configurations, one seed) and of
/// its trials, opened in headless Chromium by `scripts/check-html-report.py`.
@Suite(.serialized) struct HTMLReportTests {
    /// The script's JSON report on `page` after clicking the leaderboard's headers `clicks`.
    static func check(_ page: URL, clicks: [String] = [], screenshot: URL) throws -> [String: Any] {
        let script = try String(contentsOf: TestData.packageRoot.appendingPathComponent("scripts/check-html-report.py"), encoding: .utf8)
        let result = try PythonOracle.run(script, arguments: [page.path, "--screenshot", screenshot.path] + clicks.flatMap { ["--click", $0] })
        try #require(result.status == 0, "check-html-report.py: \(result.errorOutput)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// Every relative `href` of `html`, without its fragment.
    static func links(_ html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test func pagesOpenWithoutErrorsOrRequestsAndTheLeaderboardSorts() throws {
        guard try PythonOracle.requireModules(["websockets"]) else { return }
        let scratch = try TemporaryDirectory()
        let sweep = try RealDataSweeps.basicMotions()
        let (plan, folder) = (sweep.plan, sweep.folder)
        let leaderboard = Leaderboard(plan: plan, folder: folder)
        let page = folder.appendingPathComponent(SweepPage.fileName)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<svg ").count - 1 == SweepCharts(plan: plan, leaderboard: leaderboard).charts.count)
        for link in Self.links(html) {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(link).path), "broken link \(link)")
        }

        let clicks = ["test accuracy", "test accuracy", "augmentation", "rank", "rank"]
        let shot = scratch.file("sweep.png")
        let result = try Self.check(page, clicks: clicks, screenshot: shot)
        #expect((result["console_errors"] as? [String]) == [], "\(result["console_errors"] ?? "")")
        #expect((result["requests"] as? [String]) == [], "\(result["requests"] ?? "")")
        let headers = try #require(result["headers"] as? [String])
        let tables = try #require(result["tables"] as? [[[String]]])
        try #require(tables.count == clicks.count + 1)
        // One row per configuration, in rank order without a click.
        #expect(tables[0].count == plan.sweep.cellCount)
        #expect(tables[0].count == leaderboard.rows.count)
        #expect(tables[0].map { $0.first } == (1...leaderboard.rows.count).map { "\($0)" })
        // Each click reorders the same rows: by test accuracy's mean up then down, augmentation
        // alphabetically, rank up then down (the reverse of the page's order).
        let accuracy = try #require(headers.firstIndex(of: "test accuracy"))
        let augmentation = try #require(headers.firstIndex(of: "augmentation"))
        func means(_ table: [[String]]) -> [Double] { table.compactMap { $0[accuracy].split(separator: " ").first.flatMap { Double($0) } } }
        for table in tables { #expect(Set(table.map { $0.joined(separator: "|") }) == Set(tables[0].map { $0.joined(separator: "|") })) }
        #expect(means(tables[1]).count == leaderboard.rows.count)
        #expect(means(tables[1]) == means(tables[1]).sorted())
        #expect(means(tables[2]) == means(tables[2]).sorted(by: >))
        #expect(tables[3].map { $0[augmentation] } == tables[3].map { $0[augmentation] }.sorted())
        #expect(tables[4] == tables[0])
        #expect(tables[5] == Array(tables[0].reversed()))
        let ariaSort = try #require(result["aria_sort"] as? [[Any]])
        #expect(ariaSort.first?[accuracy] as? String == "ascending")
        let png = try Data(contentsOf: shot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG screenshot")

        // The best trial's page: its curves and a heatmap per split inline, a link back.
        let best = try #require(leaderboard.rows.first?.outcomes.first)
        let trialPage = folder.appendingPathComponent("trials/\(best.id)/\(SweepPage.fileName)")
        let trialHTML = try String(contentsOf: trialPage, encoding: .utf8)
        #expect(trialHTML.components(separatedBy: "<svg ").count - 1 == 2 + best.splits.count)
        #expect(trialHTML.contains("href=\"../../report.html\""))
        for link in Self.links(trialHTML) {
            #expect(FileManager.default.fileExists(atPath: trialPage.deletingLastPathComponent().appendingPathComponent(link).path), "broken link \(link)")
        }
        let trial = try Self.check(trialPage, screenshot: scratch.file("trial.png"))
        #expect((trial["console_errors"] as? [String]) == [], "\(trial["console_errors"] ?? "")")
        #expect((trial["requests"] as? [String]) == [], "\(trial["requests"] ?? "")")
    }
}
