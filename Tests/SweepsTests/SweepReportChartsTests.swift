import ActionLabTestSupport
import Foundation
import Sweeps
import SweepTestSupport
import Testing

/// Charts and comparisons of real sweeps on the UEA/UCR BasicMotions recordings, few epochs.
@Suite(.serialized) struct SweepReportChartsTests {
    /// Every SVG under `folder/charts`, by file name.
    static func charts(_ folder: URL) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("charts").path).sorted()
        var charts: [String: String] = [:]
        for name in names { charts[name] = try String(contentsOf: folder.appendingPathComponent("charts/\(name)"), encoding: .utf8) }
        return charts
    }

    @Test func sweepWritesChartsLinkedFromTheSummary() throws {
        let sweep = try RealDataSweeps.basicMotions()
        let (plan, folder) = (sweep.plan, sweep.folder)
        let leaderboard = Leaderboard(plan: plan, folder: folder)
        let best = try #require(leaderboard.rows.first?.outcomes.first)
        // leaderboard.csv holds swept strings as plain CSV fields (`full`, not `"""full"""`), so
        // CSV readers get the value itself.
        let csv = try String(contentsOf: folder.appendingPathComponent("leaderboard.csv"), encoding: .utf8)
        let augmentationColumn = try #require(csv.split(separator: "\n").first?.split(separator: ",").firstIndex(of: "augmentation"))
        let augmentations = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[augmentationColumn] }
        #expect(Set(augmentations) == ["none", "full", "noise"], "\(augmentations)")
        let charts = try Self.charts(folder)
        #expect(Set(charts.keys) == [
            "curves-\(best.id).svg", "loss-\(best.id).svg", "confusion-test-\(best.id).svg", "windows.duration.svg", "augmentation.svg",
        ])
        for (name, svg) in charts {
            let parsed = try ParsedXML.parse(svg)
            #expect(parsed.elements.first == "svg", "\(name)")
        }
        // The curves carry every epoch; the heatmap every test window; the parameter charts every value.
        let curves = try ParsedXML.parse(try #require(charts["curves-\(best.id).svg"]))
        #expect(curves.texts.contains { $0.hasPrefix("validation accuracy, epoch \(RealDataSweeps.basicMotionsEpochs): ") })
        let confusion = try ParsedXML.parse(try #require(charts["confusion-test-\(best.id).svg"]))
        #expect(confusion.texts.contains { $0.hasPrefix("true walking, predicted walking: ") && $0.hasSuffix(" %)") })
        let windows = try #require(best.splits["test"]?.windows)
        #expect(confusion.texts.contains { $0.hasSuffix(" over \(windows) windows") }, "the subtitle counts the test windows")
        let byAugmentation = try ParsedXML.parse(try #require(charts["augmentation.svg"]))
        for value in ["none", "full", "noise"] { #expect(byAugmentation.texts.contains(value), "missing category \(value)") }
        let byDuration = try ParsedXML.parse(try #require(charts["windows.duration.svg"]))
        #expect(byDuration.texts.contains("windows.duration (s)"))
        #expect(byDuration.texts.contains { $0.hasPrefix("2.5: validation accuracy ") && $0.hasSuffix("(3 trials, 3 configurations)") })

        let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Charts"))
        for name in charts.keys { #expect(summary.contains("](charts/\(name))"), "summary does not link \(name)") }

        // Same data, same bytes: the charts drawn again are the files' text (the shared sweep is
        // read, not written).
        let redrawn = try SweepCharts(plan: plan, leaderboard: leaderboard).documents(in: folder)
        #expect(Dictionary(uniqueKeysWithValues: redrawn.map { ($0.chart.path.split(separator: "/").last.map(String.init) ?? "", $0.document.xml) }) == charts)
    }

    @Test func comparisonOfTwoSweepsShowsOnlyTheSettingsThatDiffer() throws {
        let scratch = try TemporaryDirectory()
        func run(_ output: String, learningRate: Double) throws -> URL {
            try RealDataSweeps.runner("basicmotions", scratch: scratch.url) {
                $0.training.epochs = 2
                $0.training.seeds = [1, 2]
                $0.training.learningRate = learningRate
            }.run(output: scratch.file(output))
        }
        let slow = try run("slow", learningRate: 0.001)
        let fast = try run("fast", learningRate: 0.01)
        let comparison = try Comparison(folders: [slow, fast])
        #expect(comparison.runs.map(\.label) == ["basicmotions/slow", "basicmotions/fast"])
        #expect(comparison.differences == [Comparison.Difference(path: "training.learningRate", values: ["0.001", "0.01"])])
        #expect(comparison.settingCount > 30)
        let markdown = comparison.markdown
        #expect(markdown.contains("1 of \(comparison.settingCount) settings"))
        #expect(markdown.contains("| training.learningRate | `0.001` | `0.01` |"))
        #expect(!markdown.contains("| training.epochs |"))
        for metric in ["validation accuracy", "validation macro-F1", "test accuracy", "test macro-F1"] {
            #expect(markdown.contains("| \(metric) | "), "missing \(metric)")
        }
        #expect(markdown.contains(" ± "), "sweeps show mean ± std over seeds")

        // A sweep against one of its own trials: the seeds differ, nothing else.
        let trial = try #require(try FileManager.default.contentsOfDirectory(atPath: slow.appendingPathComponent("trials").path).sorted().first)
        let withTrial = try Comparison(folders: [slow, slow.appendingPathComponent("trials/\(trial)")])
        #expect(withTrial.differences.map(\.path) == ["training.seeds"])
        #expect(withTrial.runs[1].label == "trial \(trial)")
        #expect(withTrial.runs[1].outcomes.count == 1)

        // A run without the labels mapping: each label's row shows the difference, and the empty
        // object is not a row of its own (trial 4, finding 13: `dataset.labels | {} | —`).
        let unlabeled = try RealDataSweeps.runner("basicmotions", scratch: scratch.url) {
            $0.training.epochs = 2
            $0.training.seeds = [1, 2]
            $0.training.learningRate = 0.01
            $0.dataset.labels = [:]
        }.run(output: scratch.file("unlabeled"))
        let relabeled = try Comparison(folders: [fast, unlabeled])
        #expect(relabeled.differences.map(\.path)
                    == ["dataset.labels.Badminton", "dataset.labels.Running", "dataset.labels.Standing", "dataset.labels.Walking"],
                "\(relabeled.differences)")
        #expect(relabeled.differences.first?.values == ["\"badminton\"", nil])

        // The same folder twice gets distinct column titles and no differences.
        let same = try Comparison(folders: [fast, fast])
        #expect(same.runs.map(\.label) == ["basicmotions/fast", "basicmotions/fast (2)"])
        #expect(same.differences.isEmpty)
        #expect(same.markdown.contains("The resolved configurations are identical"))

        // A folder that is neither kind is named in the error.
        let stray = scratch.file("stray")
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: true)
        #expect(throws: SweepError.self) { try Comparison(folders: [slow, stray]) }
        do {
            _ = try Comparison(folders: [slow, stray])
        } catch {
            #expect("\(error)".contains(stray.path) && "\(error)".contains("neither a sweep folder"), "\(error)")
        }
    }
}
