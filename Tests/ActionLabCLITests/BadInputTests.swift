import ActionLabTestSupport
import Foundation
import Testing

/// The issue's bad-input cases, through the real executable: each gives one clear error, a
/// non-zero exit status, and leaves no report and no cache entry behind.
@Suite struct BadInputTests {
    /// A scratch project: `data/` with copies of real files, a manifest, cache and reports inside.
    struct Project {
        let directory: TemporaryDirectory
        var root: URL { directory.url }

        init() throws { directory = try TemporaryDirectory(prefix: "actionlab-cli") }

        /// Copies the real BasicMotions TRAIN file to `data/train.ts`, passing its text through `edit`.
        func copyBasicMotions(_ edit: (String) -> String = { $0 }) throws {
            let source = try TestData.file("uea/BasicMotions/BasicMotions_TRAIN.ts")
            _ = try writeFixture(edit(try String(contentsOf: source, encoding: .utf8)), named: "data/train.ts", in: root)
        }

        /// Writes `experiments/bad.json5` with the given dataset section and a tiny training setup.
        func writeManifest(dataset: String, trainingExtra: String = "") throws {
            _ = try writeFixture("""
                // a manifest for a bad-input test
                {
                  name: "bad-input",
                  dataset: \(dataset),
                  features: { layout: "accelerometer-gyroscope", frameRate: 10, cache: "cache" },
                  windows: { duration: 10 },
                  training: { epochs: 1, seeds: [1]\(trainingExtra) },
                  output: { directory: "reports" },
                }
                """, named: "experiments/bad.json5", in: root)
        }

        func run(_ arguments: [String] = ["run", "experiments/bad.json5"]) throws -> CommandLineTool.Result {
            try CommandLineTool.run(arguments, in: root)
        }

        /// Every file under `folder` (relative paths), empty if it does not exist.
        func files(under folder: String) -> [String] {
            let url = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return [] }
            return enumerator.compactMap { $0 as? String }.filter { name in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                return !isDirectory.boolValue
            }
        }

        /// Asserts that nothing was left in the report and cache folders.
        func expectNothingLeftBehind(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(files(under: "reports").isEmpty, "report files left: \(files(under: "reports"))", sourceLocation: sourceLocation)
            #expect(files(under: "cache").filter { $0.hasSuffix(".h5") }.isEmpty,
                    "cache entries left: \(files(under: "cache"))", sourceLocation: sourceLocation)
        }
    }

    @Test func misspeltManifestKeyIsNamedWithItsLineAndASuggestion() throws {
        let project = try Project()
        try project.copyBasicMotions()
        try project.writeManifest(dataset: """
            {
                sources: [{ format: "uea", path: "data/train.ts" }],
                valdation: { strategy: "none" },
              }
            """)
        let result = try project.run()
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("experiments/bad.json5:6:5: dataset.valdation: unknown key; did you mean 'validation'?"),
                "stderr: \(result.errorOutput)")
        #expect(result.output.isEmpty)
        project.expectNothingLeftBehind()
    }

    @Test func raggedRowInTsFileFailsNamingFileAndLine() throws {
        let project = try Project()
        // Drop the last value of the first dimension of the first series (line 14, after 13 comment and header lines).
        try project.copyBasicMotions { text in
            var lines = text.components(separatedBy: "\n")
            if let index = lines.firstIndex(where: { $0.first.map { $0.isNumber || $0 == "-" } ?? false }),
               let colon = lines[index].firstIndex(of: ":"),
               let comma = lines[index][..<colon].lastIndex(of: ",") {
                lines[index].removeSubrange(comma..<colon)
            }
            return lines.joined(separator: "\n")
        }
        try project.writeManifest(dataset: #"{ sources: [{ format: "uea", path: "data/train.ts" }], validation: { strategy: "none" } }"#)
        let result = try project.run()
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("data/train.ts:14:"), "stderr: \(result.errorOutput)")
        #expect(result.errorOutput.contains("99"), "the message should give the short length: \(result.errorOutput)")
        project.expectNothingLeftBehind()
    }

    @Test func missingDataFileIsAManifestErrorWithItsPath() throws {
        let project = try Project()
        try project.writeManifest(dataset: #"{ sources: [{ format: "uea", path: "data/nowhere.ts" }], validation: { strategy: "none" } }"#)
        let result = try project.run()
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("dataset.sources[0].path"), "stderr: \(result.errorOutput)")
        #expect(result.errorOutput.contains("nowhere.ts"), "stderr: \(result.errorOutput)")
        project.expectNothingLeftBehind()
    }

    @Test func nanInASequenceFailsNamingTheSample() throws {
        let project = try Project()
        // The third series (data row 2) gets a NaN as its fifth value.
        try project.copyBasicMotions { text in
            var lines = text.components(separatedBy: "\n")
            let dataRows = lines.indices.filter { lines[$0].first.map { $0.isNumber || $0 == "-" } ?? false }
            var values = lines[dataRows[2]].components(separatedBy: ",")
            values[4] = "NaN"
            lines[dataRows[2]] = values.joined(separator: ",")
            return lines.joined(separator: "\n")
        }
        try project.writeManifest(dataset: #"{ sources: [{ format: "uea", path: "data/train.ts" }], validation: { strategy: "none" } }"#)
        let result = try project.run()
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("train.ts#2"), "the sample id should be named: \(result.errorOutput)")
        #expect(result.errorOutput.lowercased().contains("nan"), "stderr: \(result.errorOutput)")
        project.expectNothingLeftBehind()
    }

    @Test func everyManifestProblemIsReportedAtOnce() throws {
        let project = try Project()
        try project.writeManifest(
            dataset: #"{ sources: [{ format: "uea", path: "data/nowhere.ts" }], validation: { strategy: "sometimes" } }"#,
            trainingExtra: ", learningRate: -1, batchSize: \"big\"")
        let result = try project.run(["validate", "experiments/bad.json5"])
        #expect(result.status == 1)
        for path in ["dataset.sources[0].path", "dataset.validation.strategy", "training.learningRate", "training.batchSize"] {
            #expect(result.errorOutput.contains(path), "\(path) missing from: \(result.errorOutput)")
        }
    }

    @Test func missingOrFolderManifestIsNamedWithStatusOne() throws {
        let project = try Project()
        let missing = try project.run(["validate", "experiments/none.json5"])
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("experiments/none.json5: no such file"), "stderr: \(missing.errorOutput)")
        try FileManager.default.createDirectory(at: project.root.appendingPathComponent("experiments"), withIntermediateDirectories: true)
        let folder = try project.run(["validate", "experiments"])
        #expect(folder.status == 1)
        #expect(folder.errorOutput.contains("it is a folder"), "stderr: \(folder.errorOutput)")
        _ = try writeFixture("{ name: \"x\" }", named: "experiments/latin1.json5", in: project.root)
        try Data([0x7B, 0x20, 0xE9, 0xFF, 0x7D]).write(to: project.root.appendingPathComponent("experiments/latin1.json5"))
        let binary = try project.run(["validate", "experiments/latin1.json5"])
        #expect(binary.status == 1)
        #expect(binary.errorOutput.contains("latin1.json5:1:3: not UTF-8 text: byte 0xE9 at offset 2"), "stderr: \(binary.errorOutput)")
    }

    @Test func outputUnderAFileFailsBeforeAnyWork() throws {
        let project = try Project()
        try project.copyBasicMotions()
        try project.writeManifest(dataset: #"{ sources: [{ format: "uea", path: "data/train.ts" }], validation: { strategy: "none" } }"#)
        _ = try writeFixture("not a folder", named: "afile", in: project.root)
        let result = try project.run(["run", "experiments/bad.json5", "--output", "afile/sub"])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("afile is a file, not a folder"), "stderr: \(result.errorOutput)")
        #expect(project.files(under: "cache").isEmpty, "nothing is imported before the output is known to be writable")
    }

    @Test(arguments: [["run"], ["run", "a.json5", "--frobnicate"], ["fly"], ["run", "a.json5", "b.json5"]])
    func wrongUsageExitsWithStatusTwo(arguments: [String]) throws {
        let project = try Project()
        let result = try project.run(arguments)
        #expect(result.status == 2, "stderr: \(result.errorOutput)")
        #expect(result.errorOutput.contains("error:") || result.errorOutput.contains("usage"))
    }
}
