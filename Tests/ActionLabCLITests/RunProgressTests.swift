import ActionLabTestSupport
import Foundation
import Testing

/// `actionlab run`'s progress on standard error: a block redrawn in place on a terminal (run
/// under a pseudo-terminal by util-linux's `script`), plain lines otherwise.
@Suite struct RunProgressTests {
    /// One duration × two augmentations × two seeds: four trials of 3 epochs.
    static func project() throws -> TemporaryDirectory {
        try SweepCommandTests.makeProject(name: "progress", epochs: 3, grid: #"augmentation: ["none", "full"]"#, prefix: "actionlab-progress")
    }

    /// Without a terminal: no control sequences, and after each trial a line of how many are done
    /// with the elapsed time; worker processes' lines come through whole.
    @Test(arguments: [1, 2])
    func plainLinesWithoutATerminal(jobs: Int) throws {
        let project = try Self.project()
        let result = try CommandLineTool.run(["run", "experiments/sweep.json5", "--output", "out", "--jobs", "\(jobs)"], in: project.url)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(!result.errorOutput.contains("\u{1B}["), "control sequences in: \(result.errorOutput)")
        let lines = result.errorOutput.split(separator: "\n").map(String.init)
        for done in 1...4 {
            #expect(lines.contains { $0.contains("] \(done)/4 trials done") && $0.contains("elapsed") }, "no line for \(done)/4 in \(lines)")
        }
        // Every trial's first and last epoch lines, from this process or a worker, each on a line of its own.
        #expect(lines.filter { $0.contains(" epoch 1/3: train loss") }.count == 4)
        #expect(lines.filter { $0.contains(" epoch 3/3: train loss") }.count == 4)
        #expect(lines.allSatisfy { $0.hasPrefix("[") || $0.hasPrefix("warning") }, "a line was cut or merged: \(lines)")
    }

    /// Under a pseudo-terminal: the status line and the running trial's line with its epoch bar,
    /// redrawn with cursor movements, and cleared at the end.
    @Test func blockRedrawnOnATerminal() throws {
        let project = try Self.project()
        let command = [try CommandLineTool.executable.path, "run", "experiments/sweep.json5", "--output", "out", "--jobs", "2"]
            .map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // -q: no start and end lines; -e: the child's exit status; -c: the command; the typescript to /dev/null.
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.currentDirectoryURL = project.url
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text.suffix(3000))")
        #expect(text.contains("\u{1B}[") && text.contains("F\u{1B}[J"), "no redraw in: \(text.suffix(3000))")
        #expect(text.contains("trials done"))
        #expect(text.contains(" running · elapsed "))
        #expect(text.range(of: #"  trial [0-3] \[[0-9a-f]{12}\] seed [12] epoch [1-3]/3 \[[#-]{20}\]"#, options: .regularExpression) != nil,
                "no running trial's line in: \(text.suffix(3000))")
        #expect(text.contains("4/4 trials done"))
        // The sweep folder is still printed on standard output (the terminal, here).
        #expect(text.contains(project.file("out").path))
    }
}
