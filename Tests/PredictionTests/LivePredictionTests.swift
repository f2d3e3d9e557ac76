import ActionLabTestSupport
import Foundation
import Testing
import Video

@testable import Prediction

/// `--live`: a real video (OpenCV's `vtest.avi`, people walking, 10 fps) sent by the `ffmpeg`
/// tool in real time to a local UDP address, predicted while it plays, with MediaPipe's pose.
/// The model is the suite's small SYNTHETIC Vision-18 model: the labels mean nothing here, the
/// timing and the dropping are what is checked.
@Suite(.serialized) struct LivePredictionTests {
    /// Starts `ffmpeg -re` sending `seconds` of vtest.avi as MPEG-TS to `udp://127.0.0.1:port`,
    /// or to the output that `destination` gives (options, then the URL).
    static func send(seconds: Double, port: Int, log: URL, destination: [String]? = nil) throws -> Process {
        let video = try TestData.file("opencv/vtest.avi")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re", "-i", video.path, "-t", "\(seconds)",
                             "-c:v", "mpeg2video", "-q:v", "4", "-f", "mpegts"]
            + (destination ?? ["udp://127.0.0.1:\(port)?pkt_size=1316"])
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func live(addedFrameCost: Double) throws -> LivePrediction {
        let trained = try PredictorTests.trained.get()
        return LivePrediction(
            model: try PredictionModel(folder: trained.export), settings: .createMLDefaults,
            sourceOptions: LiveSourceOptions(inputFormat: "mpegts", stallTimeout: 1.5, openingTimeout: 10), addedFrameCost: addedFrameCost)
    }

    @Test func predictionsArriveWhileTheStreamPlays() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-live")
        let port = try unusedLocalPort()
        let live = try Self.live(addedFrameCost: 0)
        let sender = try Self.send(seconds: 6, port: port, log: scratch.file("ffmpeg.log"))
        defer { if sender.isRunning { sender.terminate() } }
        var arrivals: [(ContinuousClock.Instant, Bool)] = []
        let statistics = try live.run(url: "udp://127.0.0.1:\(port)") { _, _ in arrivals.append((.now, sender.isRunning)) }
        sender.waitUntilExit()
        // Windows of 2 s every 10 frames at 30 fps: the first after 2 s of stream, then every 1/3 s.
        #expect(statistics.predictions >= 8, "\(statistics)")
        #expect(arrivals.filter { $0.1 }.count >= 5, "predictions made while ffmpeg was still sending: \(arrivals.filter { $0.1 }.count)")
        #expect(statistics.framesProcessed >= 40 && statistics.ending?.contains("stalled") == true, "\(statistics)")
        #expect(statistics.framesDecoded == statistics.framesProcessed + statistics.framesDropped)
    }

    @Test func slowPoseDropsFramesAndLatencyStaysUnderOneWindow() throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-live")
        let port = try unusedLocalPort()
        // Each frame costs 0.25 s more than MediaPipe's own time: slower than the 10 fps stream.
        let live = try Self.live(addedFrameCost: 0.25)
        let sender = try Self.send(seconds: 8, port: port, log: scratch.file("ffmpeg.log"))
        defer { if sender.isRunning { sender.terminate() } }
        let statistics = try live.run(url: "udp://127.0.0.1:\(port)") { _, _ in }
        sender.waitUntilExit()
        #expect(statistics.framesDropped > 0, "\(statistics)")
        #expect(statistics.framesProcessed < statistics.framesDecoded)
        let p95 = try #require(statistics.latency(quantile: 0.95), "no prediction: \(statistics)")
        // A window is 2 s; the newest frame is always the one processed, so latency stays near one frame's cost.
        #expect(p95 < 2, "latency p95 \(p95) s")
    }

    /// The other kinds of live source the issue names that need no device: a named pipe that
    /// ffmpeg writes (opened before the writer starts, so the reader waits for it), and an HTTP
    /// stream that ffmpeg serves (`-listen 1`), both in real time.
    @Test(arguments: ["pipe", "http"]) func predictionsArriveFromANamedPipeAndAnHTTPStream(kind: String) throws {
        let scratch = try TemporaryDirectory(prefix: "actionlab-live-\(kind)")
        let port = try unusedLocalPort()
        let live = try Self.live(addedFrameCost: 0)
        let url: String
        let destination: [String]
        if kind == "pipe" {
            let fifo = scratch.file("stream.ts")
            try #require(mkfifo(fifo.path, 0o600) == 0, "mkfifo failed")
            url = fifo.path
            destination = ["-y", fifo.path]
        } else {
            url = "http://127.0.0.1:\(port)"
            destination = ["-listen", "1", url]
        }
        let sender = try Self.send(seconds: 5, port: port, log: scratch.file("ffmpeg.log"), destination: destination)
        defer { if sender.isRunning { sender.terminate() } }
        // ffmpeg's HTTP server must be listening before the reader connects; it does so as soon
        // as it has opened the input, well within a second.
        if kind == "http" { Thread.sleep(forTimeInterval: 1) }
        var whilePlaying = 0
        let statistics = try live.run(url: url) { _, _ in if sender.isRunning { whilePlaying += 1 } }
        sender.waitUntilExit()
        let log = (try? String(contentsOf: scratch.file("ffmpeg.log"), encoding: .utf8)) ?? ""
        // 5 s at 10 fps, windows of 2 s every 1/3 s once the first is full.
        #expect(statistics.predictions >= 5, "\(statistics); ffmpeg: \(log)")
        #expect(whilePlaying >= 3, "predictions made while ffmpeg was still sending: \(whilePlaying)")
        #expect(statistics.framesProcessed >= 30, "\(statistics)")
    }
}
