import Foundation
import Testing

/// Runs the `ffmpeg` command-line tool (Debian package `ffmpeg`, installed by `scripts/setup`)
/// to make test clips and to decode reference pixels.
enum FFmpegTool {
    struct Failure: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var errorOutput: String
        var description: String { "ffmpeg \(arguments.joined(separator: " ")) exited with \(status): \(errorOutput)" }
    }

    /// Runs `ffmpeg -hide_banner -loglevel error -y ARGUMENTS` and returns its standard output.
    /// - Throws: ``Failure`` when it exits non-zero; an error saying how to install it when it is
    ///   missing.
    @discardableResult
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let fullArguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        process.arguments = ["ffmpeg"] + fullArguments
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        // Read both pipes concurrently so that neither can fill up and block ffmpeg.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(errorOutput.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorData.waitForValue(), as: UTF8.self)
        if process.terminationStatus == 127 {
            throw Failure(arguments: fullArguments, status: 127, errorOutput: "ffmpeg is not installed: apt-get install -y ffmpeg (scripts/setup does)")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(arguments: fullArguments, status: process.terminationStatus, errorOutput: errorText)
        }
        return outputData
    }

    /// Makes a clip of FFmpeg's `testsrc2` pattern (asymmetric: colour bars, a moving box, a
    /// frame counter), encoded with H.264 in `yuv420p`.
    /// - Parameters:
    ///   - url: the output file; its extension picks the container.
    ///   - width, height: the size in pixels.
    ///   - frameRate: frames per second.
    ///   - duration: seconds.
    ///   - extra: more output options (codec, metadata, muxer flags).
    static func makeTestPattern(
        at url: URL, width: Int = 320, height: Int = 240, frameRate: Int = 30, duration: Double = 2,
        extra: [String] = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
    ) throws {
        try run(
            ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=\(duration)"] + extra
                + [url.path])
    }

    /// The first `frameCount` frames of `url` as packed RGB24, decoded by the ffmpeg tool with its
    /// default automatic rotation: the reference ActionLab's decoder is compared with.
    static func referenceRGB(of url: URL, frameCount: Int = 1) throws -> Data {
        try run(["-i", url.path, "-frames:v", "\(frameCount)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    }
}

/// A value written by one thread and awaited by another.
///
/// `@unchecked Sendable`: `value` is read and written only with `condition` locked.
private final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Data?

    func set(_ data: Data) {
        condition.lock()
        value = data
        condition.broadcast()
        condition.unlock()
    }

    func waitForValue() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value ?? Data()
    }
}
