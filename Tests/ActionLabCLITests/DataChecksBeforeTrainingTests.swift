import ActionLabTestSupport
import Foundation
import Testing

/// What `validate --data` and `run` check in the data before anything is written (issue 15,
/// items 11 and 13): both make the same checks, so a data set that validates does not fail in a
/// trial, and data that trains badly without failing is named in a warning.
@Suite struct DataChecksBeforeTrainingTests {
    /// A scratch project with BasicMotions rows in `data/train.ts` and `data/test.ts`.
    struct Project {
        let directory: TemporaryDirectory
        var root: URL { directory.url }

        /// - Parameters:
        ///   - trainRows: Keeps a data row of the TRAIN file when true for (row index, label).
        ///   - editRow: Rewrites a kept TRAIN row given its label.
        init(trainRows: (Int, String) -> Bool = { _, _ in true }, editRow: (String, String) -> String = { row, _ in row }) throws {
            directory = try TemporaryDirectory(prefix: "actionlab-datacheck")
            func rows(_ name: String, keep: (Int, String) -> Bool, edit: (String, String) -> String) throws -> String {
                let text = try String(contentsOf: try TestData.file("uea/BasicMotions/\(name)"), encoding: .utf8)
                var index = 0
                return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
                    let line = String(line)
                    guard let first = line.first, first.isNumber || first == "-" else { return line }
                    defer { index += 1 }
                    let label = String(line.split(separator: ":").last ?? "")
                    return keep(index, label) ? edit(line, label) : nil
                }.joined(separator: "\n")
            }
            _ = try writeFixture(try rows("BasicMotions_TRAIN.ts", keep: trainRows, edit: editRow), named: "data/train.ts", in: root)
            _ = try writeFixture(try rows("BasicMotions_TEST.ts", keep: { _, _ in true }, edit: { row, _ in row }), named: "data/test.ts", in: root)
        }

        /// Writes `experiments/m.json5`: train.ts (and test.ts with `test`), 1 epoch of a tiny TCN.
        func writeManifest(test: Bool = true, datasetExtra: String = "") throws {
            _ = try writeFixture("""
                {
                  name: "datacheck",
                  dataset: {
                    sources: [{ format: "uea", path: "data/train.ts" }],
                    \(test ? #"test: { sources: [{ format: "uea", path: "data/test.ts" }] },"# : "")
                    \(datasetExtra)
                  },
                  features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "cache" },
                  windows: { duration: 5 },
                  model: { channels: [8], kernelSizes: [3] },
                  training: { epochs: 1, seeds: [1] },
                  output: { directory: "reports" },
                }
                """, named: "experiments/m.json5", in: root)
        }

        func run(_ arguments: [String]) throws -> CommandLineTool.Result { try CommandLineTool.run(arguments, in: root) }

        var reports: [String] { (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("reports").path)) ?? [] }
    }

    @Test("A class only in the test set fails validate --data and run alike, before any sweep folder, naming the fix")
    func classOnlyInTheTestSet() throws {
        let project = try Project(trainRows: { _, label in label != "Badminton" })
        try project.writeManifest()
        let validate = try project.run(["validate", "experiments/m.json5", "--data"])
        #expect(validate.status == 1)
        #expect(validate.errorOutput.contains("the test data has label 'Badminton'"), "stderr: \(validate.errorOutput)")
        #expect(validate.errorOutput.contains("dataset.labels: { Badminton: null }"), "stderr: \(validate.errorOutput)")
        let run = try project.run(["run", "experiments/m.json5"])
        #expect(run.status == 1)
        #expect(run.errorOutput.contains("dataset.labels: { Badminton: null }"), "stderr: \(run.errorOutput)")
        #expect(!run.errorOutput.contains("trial 0"), "no trial starts: \(run.errorOutput)")
        #expect(project.reports.isEmpty, "no sweep folder is created: \(project.reports)")

        // The suggested fix works for both.
        try project.writeManifest(datasetExtra: "labels: { Badminton: null },")
        let fixed = try project.run(["validate", "experiments/m.json5", "--data"])
        #expect(fixed.status == 0, "stderr: \(fixed.errorOutput)")
        let trained = try project.run(["run", "experiments/m.json5"])
        #expect(trained.status == 0, "stderr: \(trained.errorOutput)")
    }

    @Test("One recording per label: validate --data and run warn that there is no validation set, naming the labels")
    func oneRecordingPerLabel() throws {
        var seen = Set<String>()
        let project = try Project(trainRows: { _, label in seen.insert(label).inserted })
        try project.writeManifest(test: false)
        for arguments in [["validate", "experiments/m.json5", "--data"], ["run", "experiments/m.json5"]] {
            let result = try project.run(arguments)
            #expect(result.status == 0, "\(arguments[0]): \(result.errorOutput)")
            #expect(result.errorOutput.contains("warning: no validation set: every label ('Badminton', 'Running', 'Standing', 'Walking') has a single recording"),
                    "\(arguments[0]): \(result.errorOutput)")
        }
        // With early stopping the same data cannot train: validate --data says so, as run would.
        try project.writeManifest(test: false, datasetExtra: "")
        let manifest = try String(contentsOf: project.root.appendingPathComponent("experiments/m.json5"), encoding: .utf8)
            .replacingOccurrences(of: "epochs: 1,", with: "epochs: 1, earlyStopping: { patience: 2 },")
        try manifest.write(to: project.root.appendingPathComponent("experiments/m.json5"), atomically: true, encoding: .utf8)
        let stopping = try project.run(["validate", "experiments/m.json5", "--data"])
        #expect(stopping.status == 1)
        #expect(stopping.errorOutput.contains("the validation split has no windows: training.earlyStopping monitors it"),
                "stderr: \(stopping.errorOutput)")
    }

    @Test("A label whose training sequences are all zeros is named by validate --data and run, which still trains")
    func allZeroLabel() throws {
        let project = try Project(editRow: { row, label in
            guard label == "Standing" else { return row }
            let values = row.split(separator: ":").dropLast().map { dimension in
                dimension.split(separator: ",").map { _ in "0" }.joined(separator: ",")
            }
            return (values + [label]).joined(separator: ":")
        })
        try project.writeManifest(test: false)
        for arguments in [["validate", "experiments/m.json5", "--data"], ["run", "experiments/m.json5"]] {
            let result = try project.run(arguments)
            #expect(result.status == 0, "\(arguments[0]): \(result.errorOutput)")
            #expect(result.errorOutput.contains("warning: every training sequence of 'Standing' (")
                && result.errorOutput.contains("is all zeros"), "\(arguments[0]): \(result.errorOutput)")
            #expect(!result.errorOutput.contains("'Walking'"), "\(arguments[0]): \(result.errorOutput)")
        }
    }
}
