import Foundation
import Testing

/// The `ffmpeg` command-line tool (installed by `scripts/setup`), for making test clips from the real data.
public enum FFmpegTool {
    /// Runs `ffmpeg` quietly with `arguments`, creating the folder of the output (the last argument).
    /// - Throws: When the tool cannot start or exits with a failure (the arguments are in the message).
    public static func run(_ arguments: [String]) throws {
        if let output = arguments.last {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: output).deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " ")) failed (run scripts/setup)")
    }
}
