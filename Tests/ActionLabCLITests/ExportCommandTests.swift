import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab export` through the real executable: a run exported end to end, and errors that
/// name the folder or file and what is missing.
@Suite struct ExportCommandTests {
    /// Runs a two-seed, two-epoch BasicMotions experiment with the CLI and returns the report folder.
    static func trainedReport(in root: URL) throws -> URL {
        let source = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: root.appendingPathComponent("data/train.ts"))
        _ = try writeFixture("""
            {
              name: "export-cli",
              dataset: { sources: [{ format: "uea", path: "data/train.ts" }], validation: { strategy: "automatic", fraction: 0.25 } },
              features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "cache" },
              windows: { duration: 10 },
              model: { channels: [8], kernelSizes: [3] },
              training: { epochs: 2, seeds: [1, 2] },
              output: { directory: "reports" },
            }
            """, named: "experiments/export.json5", in: root)
        let run = try CommandLineTool.run(["run", "experiments/export.json5", "--output", "reports/run"], in: root)
        try #require(run.status == 0, "actionlab run failed: \(run.errorOutput)")
        return root.appendingPathComponent("reports/run")
    }

    @Test func exportsTheBestTrialInTheRequestedFormats() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-export")
        _ = try Self.trainedReport(in: scratch.url)
        let result = try CommandLineTool.run(
            ["export", "reports/run", "--format", "onnx,safetensors", "--output", "exported"], in: scratch.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == scratch.file("exported").path)
        #expect(result.errorOutput.contains("best configuration by validation.accuracy"))
        // `check` of a manifest without videos says so (it wrote an empty report, "Flags: None", with status 0).
        let check = try CommandLineTool.run(["check", "experiments/export.json5"], in: scratch.url)
        #expect(check.status == 2 && check.errorOutput.contains("experiments/export.json5 names no video to check (its sources: uea)"),
                "\(check.errorOutput)")
        // Nor into a folder another command wrote: the sweep folder gained check.md, videos.csv and labels.csv.
        let intoSweep = try CommandLineTool.run(["check", "experiments/export.json5", "--output", "reports/run"], in: scratch.url)
        #expect(intoSweep.status == 1 && intoSweep.errorOutput.contains(
            "reports/run: cannot write: it is a sweep folder of actionlab run (it holds sweep.json); check writes into a folder of its own"),
                "\(intoSweep.errorOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.file("exported").path).sorted()
        #expect(files == ["config.json", "model-card.md", "model.onnx", "weights.safetensors"])

        let trials = try FileManager.default.contentsOfDirectory(atPath: scratch.file("reports/run/trials").path).sorted()
        #expect(trials.count == 2)
        let second = try #require(trials.last)
        let named = try CommandLineTool.run(["export", "reports/run", "--trial", second, "--output", "named"], in: scratch.url)
        #expect(named.status == 0, "\(named.errorOutput)")
        let card = try String(contentsOf: scratch.file("named/model-card.md"), encoding: .utf8)
        #expect(card.contains("trial trials/\(second)") && card.contains("Rule: named with --trial \(second)"))

        // A trial folder given directly.
        let first = try #require(trials.first)
        let direct = try CommandLineTool.run(["export", "reports/run/trials/\(first)", "--format", "h5", "--output", "direct"], in: scratch.url)
        #expect(direct.status == 0, "\(direct.errorOutput)")
        #expect(try Data(contentsOf: scratch.file("direct/weights.h5")) == Data(contentsOf: scratch.file("reports/run/trials/\(first)/weights.h5")))

        // Weights cut short after the run: `status` calls the trial damaged and the reports stale (they
        // count it), and exporting the sweep leaves it out, saying why on standard error.
        let cut = scratch.file("reports/run/trials/\(first)/weights.h5")
        let bytes = try Data(contentsOf: cut)
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let status = try CommandLineTool.run(["status", "reports/run"], in: scratch.url)
        #expect(status.status == 0, "\(status.errorOutput)")
        #expect(status.output.contains("trials/\(first)/weights.h5 cannot be read: ") && status.output.contains("truncated file"),
                "\(status.output)")
        #expect(status.output.contains("1 finished, 1 damaged; reports not current"), "\(status.output)")
        let partial = try CommandLineTool.run(["export", "reports/run", "--output", "partial"], in: scratch.url)
        #expect(partial.status == 0, "\(partial.errorOutput)")
        #expect(partial.errorOutput.contains("warning: left out trials/\(first): it lacks a readable weights.h5 (")
                && partial.errorOutput.contains("truncated file"), "\(partial.errorOutput)")
        #expect(partial.errorOutput.contains("exported trials/\(second) ("), "\(partial.errorOutput)")
    }

    @Test func errorsNameWhatIsMissing() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-export")
        let noOutput = try CommandLineTool.run(["export", "somewhere"], in: scratch.url)
        #expect(noOutput.status == 2 && noOutput.errorOutput.contains("missing --output"))

        let noFolder = try CommandLineTool.run(["export", "nowhere", "--output", "out"], in: scratch.url)
        #expect(noFolder.status == 1 && noFolder.errorOutput.contains("\(scratch.file("nowhere").path): no such folder"))

        let trial = scratch.file("report/trials/t1")
        try FileManager.default.createDirectory(at: trial, withIntermediateDirectories: true)
        try Data().write(to: trial.appendingPathComponent("weights.h5"))
        let incomplete = try CommandLineTool.run(["export", "report", "--output", "out"], in: scratch.url)
        #expect(incomplete.status == 1)
        #expect(incomplete.errorOutput.contains("trials/t1 lacks config.json, metrics.json, provenance.json, complete.json"),
                "\(incomplete.errorOutput)")

        let badFormat = try CommandLineTool.run(["export", "report", "--format", "onnx,tflite", "--output", "out"], in: scratch.url)
        // Wrong usage, as other bad option values are: status 2.
        #expect(badFormat.status == 2 && badFormat.errorOutput.contains("unknown export format 'tflite'"), "\(badFormat.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out").path))
    }
}
