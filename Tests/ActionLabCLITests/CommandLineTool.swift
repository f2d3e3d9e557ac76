import ActionLabTestSupport
import Foundation
import Testing

/// Runs the `actionlab` executable that `swift test` built beside the test bundle.
enum CommandLineTool {
    struct Result {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// The built executable: next to the test bundle (the test target depends on it, so it is built).
    static var executable: URL {
        get throws {
            var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("actionlab")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
            for configuration in ["release", "debug"] {
                let candidate = TestData.packageRoot.appendingPathComponent(".build/\(configuration)/actionlab")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            throw CommandLineToolNotFound()
        }
    }

    struct CommandLineToolNotFound: Error, CustomStringConvertible {
        var description: String { "the actionlab executable was not found beside the test bundle or in .build/" }
    }

    /// Runs `actionlab arguments...` in `directory` and collects its exit status and output.
    /// - Parameters:
    ///   - environment: Changes to this process's environment for the child: a value sets the
    ///     variable, nil removes it.
    ///   - launcher: A command that runs `actionlab` (its path and arguments before
    ///     `actionlab`'s, such as `["/usr/bin/taskset", "-c", "0"]`), or none.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String?] = [:], launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [try executable.path] + arguments
        } else {
            process.executableURL = try executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var childEnvironment = ProcessInfo.processInfo.environment
        for (name, value) in environment { childEnvironment[name] = value }
        process.environment = childEnvironment
        // Standard error goes to a file so that neither stream can fill a pipe and block the child.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("actionlab-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errorHandle.close()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: try String(contentsOf: errorFile, encoding: .utf8))
    }
}
