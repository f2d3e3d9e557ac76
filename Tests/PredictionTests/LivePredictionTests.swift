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
    /// Starts `ffmpeg -re` sending `seconds` of vtest.avi to `udp://127.0.0.1:port`.
    static func send(seconds: Double, port: Int, log: URL) throws -> Process {
        let video = try TestData.file("opencv/vtest.avi")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re", "-i", video.path, "-t", "\(seconds)",
                             "-c:v", "mpeg2video", "-q:v", "4", "-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316"]
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
}
