import Foundation

/// An `ffmpeg` process that sends FFmpeg's `testsrc` pattern in real time (`-re`) to a live
/// address or a named pipe, as a camera or an encoder on the network would.
final class StreamSender {
    /// The pattern's size and frame rate.
    static let width = 160
    static let height = 120
    static let frameRate = 30

    private let process = Process()
    /// ffmpeg's standard error (its `-loglevel error` lines), for failure messages.
    private let errorLog: URL

    /// Starts sending `duration` seconds of the pattern to `output`.
    /// - Parameters:
    ///   - output: the destination, such as `udp://127.0.0.1:5000?pkt_size=1316` or a pipe's path.
    ///   - format: the muxer (`mpegts`, `rawvideo`).
    ///   - duration: seconds of pattern, sent in real time.
    ///   - encoding: output options before the muxer (codec, pixel format).
    ///   - errorLog: where ffmpeg's standard error goes.
    init(
        to output: String, format: String, duration: Double, encoding: [String] = ["-c:v", "mpeg2video"], errorLog: URL
    ) throws {
        self.errorLog = errorLog
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-re", "-f", "lavfi", "-i",
             "testsrc=size=\(Self.width)x\(Self.height):rate=\(Self.frameRate)", "-t", "\(duration)"]
            + encoding + ["-f", format, output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
    }

    /// Waits until ffmpeg has sent everything and exited.
    /// - Returns: ffmpeg's exit status and what it printed to standard error.
    @discardableResult
    func waitUntilExit() -> (status: Int32, errors: String) {
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        return (process.terminationStatus, errors)
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// The pattern's frames as `StreamSender` sends them, packed RGB24, made by the ffmpeg tool
/// without `-re`: the reference for pixels received through a pipe.
func referencePatternFrames(count: Int) throws -> [[UInt8]] {
    let data = try FFmpegTool.run([
        "-f", "lavfi", "-i",
        "testsrc=size=\(StreamSender.width)x\(StreamSender.height):rate=\(StreamSender.frameRate)",
        "-frames:v", "\(count)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
    ])
    let frameSize = StreamSender.width * StreamSender.height * 3
    return stride(from: 0, to: data.count - frameSize + 1, by: frameSize).map { [UInt8](data[$0..<$0 + frameSize]) }
}
