import ActionLabTestSupport
import Foundation
import Manifest
import Reports
import Sweeps
import Testing
import Training

/// The summary's settings table describes what the trials trained with, also where the grid
/// changes a setting through another key (a swept `training.recipe` changes the optimizer).
@Suite struct SweepSummarySettingsTests {
    static func summary(grid: String) throws -> String {
        let data = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let text = """
            {
              name: "recipes",
              dataset: { sources: [{ format: "uea", path: "\(data.path)" }] },
              features: { layout: "accelerometer-gyroscope", frameRate: 10 },
              training: { epochs: 3 },
              sweep: { grid: { \(grid) } },
            }
            """
        let plan = try SweepPlan.parse(text: text, fileName: "recipes.json5", baseDirectory: URL(fileURLWithPath: "/tmp"))
        let leaderboard = Leaderboard(metric: plan.sweep.selection, parameters: [], outcomes: [], timings: [:])
        return SweepSummary(plan: plan, leaderboard: leaderboard, missing: 0).markdown
    }

    /// Before: the table showed the base configuration's "adam lr 0.001, weight decay 0.0" for a
    /// sweep whose "pyskl" cell trained with SGD at 0.1 (experiments/utd-mhad-dev/7-stgcnpp-recipe.json5).
    @Test func aSweptRecipeShowsEachConfigurationsOptimizer() throws {
        let markdown = try Self.summary(grid: "'training.recipe': ['actionlab', 'pyskl']")
        let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| training |") })
        #expect(row == "| training | by configuration: 3 epochs, batch 16, adam lr 0.001, weight decay 0.0, constant schedule; "
            + "or 3 epochs, batch 16, sgd lr 0.1 (momentum 0.9, Nesterov), weight decay 0.0005, cosine schedule |", "\(row)")
        let model = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| model |") })
        #expect(!model.contains("by configuration"), "the model is the same in both cells: \(model)")
    }

    @Test func aSweptLearningRateShowsEachValueAndTheRestOnce() throws {
        let markdown = try Self.summary(grid: "'training.learningRate': [0.01, 0.001]")
        let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| training |") })
        #expect(row.contains("by configuration: 3 epochs, batch 16, adam lr 0.01,"), "\(row)")
        #expect(row.contains("; or 3 epochs, batch 16, adam lr 0.001,"), "\(row)")
        let layout = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| layout |") })
        #expect(!layout.contains("by configuration"), "\(layout)")
    }
}
