import ActionLabTestSupport
import Foundation
import Sweeps
import Testing

/// `actionlab compare` through the real executable, on two short runs of the real BasicMotions data.
@Suite(.serialized) struct CompareCommandTests {
    /// A project with two finished one-configuration sweeps, `a` and `b`, that differ in the
    /// learning rate and the model's channels, and in their cache and output folders, which
    /// change no result and are not compared.
    static func makeProject() throws -> TemporaryDirectory {
        let project = try TemporaryDirectory(prefix: "actionlab-compare")
        let train = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        let test = try TestData.file("uea/BasicMotions/BasicMotions_TEST.ts")
        for (name, learningRate, channels) in [("a", "0.001", "[16, 16]"), ("b", "0.01", "[8, 8]")] {
            _ = try writeFixture("""
                {
                  name: "compare-\(name)",
                  dataset: {
                    sources: [{ format: "uea", path: "\(train.path)" }],
                    test: { sources: [{ format: "uea", path: "\(test.path)" }] },
                  },
                  features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "cache-\(name)" },
                  output: { directory: "reports-\(name)" },
                  windows: { duration: 10 },
                  model: { channels: \(channels), kernelSizes: [5, 3] },
                  training: { epochs: 2, seeds: [1], learningRate: \(learningRate) },
                }
                """, named: "\(name).json5", in: project.url)
            let run = try CommandLineTool.run(["run", "\(name).json5", "--output", name], in: project.url)
            try #require(run.status == 0, "stderr: \(run.errorOutput)")
        }
        return project
    }

    @Test func comparePrintsTheDifferingSettingsAndTheScores() throws {
        let project = try Self.makeProject()
        let result = try CommandLineTool.run(["compare", "a", "b"], in: project.url)
        #expect(result.status == 0, "stderr: \(result.errorOutput)")
        // The first cells of the settings table (after its header and rule), between its heading and the scores.
        let section = result.output.components(separatedBy: "## Settings that differ").last?.components(separatedBy: "## Scores").first ?? ""
        let settings = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2)
            .map { $0.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        #expect(settings == ["model.channels", "name", "training.learningRate"], "\(result.output)")
        #expect(result.output.contains("| training.learningRate | `0.001` | `0.01` |"))
        #expect(result.output.contains("| test accuracy | "))

        // A trial folder against a sweep folder, written to a file.
        let trial = try #require(try FileManager.default.contentsOfDirectory(atPath: project.file("b/trials").path).first)
        let written = try CommandLineTool.run(["compare", "a", "b/trials/\(trial)", "--output", "out/compare.md"], in: project.url)
        #expect(written.status == 0, "stderr: \(written.errorOutput)")
        #expect(written.output.isEmpty)
        let markdown = try String(contentsOf: project.file("out/compare.md"), encoding: .utf8)
        #expect(markdown.contains("| setting | compare-a/a | trial \(trial) |"))
        #expect(markdown.hasPrefix("# Comparison of 2 runs"))

        // A pipe at --output is refused, not replaced by a regular file (as /dev/full was).
        #expect(mkfifo(project.file("pipe.md").path, 0o644) == 0)
        let pipe = try CommandLineTool.run(["compare", "a", "b", "--output", "pipe.md"], in: project.url)
        #expect(pipe.status == 1 && pipe.errorOutput.contains("pipe.md: cannot write: it is a named pipe, not a regular file"),
                "stderr: \(pipe.errorOutput)")
        var status = stat()
        #expect(lstat(project.file("pipe.md").path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

        // A trial folder that status calls damaged is not compared either.
        try Data("{\"test\": 1}".utf8).write(to: project.file("b/trials/\(trial)/metrics.json"))
        let damaged = try CommandLineTool.run(["compare", "a", "b/trials/\(trial)"], in: project.url)
        #expect(damaged.status == 1 && damaged.errorOutput.contains("the trial folder is damaged: \(trial)/metrics.json"),
                "stderr: \(damaged.errorOutput)")
    }

    @Test func badFoldersAndUsageAreReported() throws {
        let project = try TemporaryDirectory(prefix: "actionlab-compare")
        try FileManager.default.createDirectory(at: project.file("empty"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: project.file("other"), withIntermediateDirectories: true)
        let neither = try CommandLineTool.run(["compare", "empty", "other"], in: project.url)
        #expect(neither.status == 1)
        #expect(neither.errorOutput.contains("empty: cannot compare: it is neither a sweep folder"), "stderr: \(neither.errorOutput)")
        let missing = try CommandLineTool.run(["compare", "empty", "nowhere"], in: project.url)
        #expect(missing.status == 1)
        let one = try CommandLineTool.run(["compare", "empty"], in: project.url)
        #expect(one.status == 2)
        #expect(one.errorOutput.contains("at least two folders"))
        let help = try CommandLineTool.run(["--help"], in: project.url)
        #expect(help.output.contains("compare DIR DIR..."))
    }
}
