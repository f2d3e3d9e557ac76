import ActionLabTestSupport
import Foundation
import Testing

/// Several processes on one sweep folder: each trial trains once, whoever trains it.
@Suite(.serialized) struct ConcurrentRunTests {
    /// 2 cells × 2 seeds = 4 short trials on the real BasicMotions recordings.
    static func makeProject() throws -> TemporaryDirectory {
        try SweepCommandTests.makeProject(
            name: "concurrent-sweep", epochs: 6, grid: #""windows.duration": [5, 10]"#, manifest: "sweep.json5", prefix: "actionlab-concurrent")
    }

    /// Starts `actionlab arguments...` in `directory` with standard error to `log`.
    static func start(_ arguments: [String], in directory: URL, log: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = try CommandLineTool.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Two `actionlab run DIR` (one with two workers) and an `actionlab trial DIR 0 1 2 3`
    /// started together on a prepared folder: four trainings in all, every trial finished.
    @Test func eachTrialTrainsOnceHoweverManyProcessesRunAFolder() throws {
        let project = try Self.makeProject()
        let prepared = try CommandLineTool.run(["run", "sweep.json5", "--output", "sweep", "--prepare"], in: project.url)
        #expect(prepared.status == 0, "stderr: \(prepared.errorOutput)")
        let folder = project.file("sweep")

        let commands = [["run", folder.path], ["run", folder.path, "--jobs", "2"], ["trial", folder.path, "0", "1", "2", "3"]]
        let logs = commands.indices.map { project.file("process-\($0).log") }
        let processes = try zip(commands, logs).map { try Self.start($0, in: project.url, log: $1) }
        for process in processes { process.waitUntilExit() }
        let texts = try logs.map { try String(contentsOf: $0, encoding: .utf8) }
        for (process, text) in zip(processes, texts) {
            #expect(process.terminationStatus == 0, "stderr: \(text)")
        }
        // Every training prints "...: training N epochs on M windows" once.
        let trainings = texts.map { $0.components(separatedBy: " epochs on ").count - 1 }
        #expect(trainings.reduce(0, +) == 4, "trainings per process \(trainings):\n\(texts.joined(separator: "\n---\n"))")
        let trials = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("trials").path)
        #expect(trials.count == 4 && trials.allSatisfy { !$0.contains(".partial-") }, "\(trials)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaderboard.csv").path))
    }
}
