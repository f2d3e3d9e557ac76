import ActionLabTestSupport
import Foundation
import Testing
import Video

/// `LiveVideoSource` against streams that the ffmpeg tool sends in real time (`-re`) to a local
/// UDP port (MPEG-TS, RTP) or a named pipe. Each stream lasts one to three seconds. Time bounds are about
/// behaviour (frames arrive while the stream plays; a slow consumer gets recent frames; a stall
/// is reported after its timeout), with margins of a quarter second or more so that a busy
/// machine does not fail them. Serialized, so that the streams do not compete for the cores.
@Suite(.serialized) struct LiveVideoSourceTests {
    /// The pattern's frame interval in seconds.
    private static let frameInterval = 1 / Double(StreamSender.frameRate)

    /// What a consumer saw: the frames, when each was returned, and how the stream ended.
    private struct Reading {
        var frames: [LiveFrame] = []
        /// When ``LiveVideoSource/next()`` returned each frame.
        var deliveredAt: [ContinuousClock.Instant] = []
        /// The error that ended the stream, nil for its end.
        var ending: VideoError?
        /// When the stream ended (nil or the error).
        var endedAt = ContinuousClock.now

        /// Each frame's age in seconds when it was delivered.
        var agesAtDelivery: [Double] { zip(frames, deliveredAt).map { $0.age(at: $1) } }
    }

    /// Reads `source` to its end, sleeping `work` seconds after each frame as a slow consumer.
    private func read(_ source: LiveVideoSource, work: Double = 0) -> Reading {
        var reading = Reading()
        do {
            while let frame = try source.next() {
                reading.deliveredAt.append(.now)
                reading.frames.append(frame)
                if work > 0 { Thread.sleep(forTimeInterval: work) }
            }
        } catch {
            reading.ending = error
        }
        reading.endedAt = .now
        return reading
    }

    /// Seconds from `start` to `end`.
    private func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let elapsed = end - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// A UDP address on a free local port, for sending to (with the MPEG-TS datagram size) and
    /// for reading from.
    private func udpAddresses() throws -> (send: String, read: String) {
        let port = try unusedLocalPort()
        return ("udp://127.0.0.1:\(port)?pkt_size=1316", "udp://127.0.0.1:\(port)")
    }

    @Test func framesArriveWhileAUDPStreamPlays() throws {
        let directory = try TemporaryDirectory()
        let address = try udpAddresses()
        let source = LiveVideoSource(url: address.read, options: LiveSourceOptions(inputFormat: "mpegts", stallTimeout: 1))
        let sender = try StreamSender(to: address.send, format: "mpegts", duration: 3, errorLog: directory.file("ffmpeg.log"))

        let reading = read(source)
        let sent = sender.waitUntilExit()
        #expect(sent.status == 0, "\(sent.errors)")
        let info = try source.info()
        #expect(info.storedWidth == StreamSender.width && info.storedHeight == StreamSender.height)
        #expect(info.codecName == "mpeg2video")

        let first = try #require(reading.frames.first, "no frame arrived; ending: \(String(describing: reading.ending))")
        let last = try #require(reading.frames.last)
        // Frames arrive while the 3-second stream plays: the first one well before the last,
        // which came at its end (however long ffmpeg took to start).
        let spread = seconds(from: first.receivedAt, to: last.receivedAt)
        #expect(spread > 1.5, "frames arrived within \(spread) s")
        // A consumer that keeps up sees most of the 90 frames (probing may take some).
        #expect(reading.frames.count >= 45, "\(reading.frames.count) frames")
        #expect(reading.frames.allSatisfy { $0.frame.width == StreamSender.width && $0.frame.height == StreamSender.height })
        // Stream time: 0 for the first decoded frame, then strictly increasing on the 1/30 s grid.
        if first.index == 0 { #expect(first.timestamp == 0) }
        let times = reading.frames.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        for time in times {
            let frames = time / Self.frameInterval
            #expect(abs(frames - frames.rounded()) < 0.01, "timestamp \(time) s is not on the frame grid")
        }
        #expect(zip(reading.frames, reading.frames.dropFirst()).allSatisfy { $0.index < $1.index })

        // UDP has no end: the stream ends with the stall error once the sender has gone.
        let ending = try #require(reading.ending)
        #expect(ending.kind == .streamStalled(seconds: 1))
        #expect(ending.filePath == address.read)
        let statistics = source.statistics
        #expect(statistics.framesDelivered == reading.frames.count)
        #expect(statistics.framesDecoded == statistics.framesDelivered + statistics.framesDropped + statistics.framesWaiting)
    }

    @Test func aSlowConsumerGetsTheNewestFrameAndTheOlderOnesAreDropped() throws {
        let directory = try TemporaryDirectory()
        let address = try udpAddresses()
        let source = LiveVideoSource(url: address.read, options: LiveSourceOptions(inputFormat: "mpegts", stallTimeout: 1))
        let sender = try StreamSender(to: address.send, format: "mpegts", duration: 3, errorLog: directory.file("ffmpeg.log"))

        // Pose estimation three times slower than the stream: 0.1 s per 1/30 s frame.
        let reading = read(source, work: 3 * Self.frameInterval)
        sender.waitUntilExit()
        source.close()

        let statistics = source.statistics
        #expect(reading.frames.count >= 10, "\(reading.frames.count) frames; ending: \(String(describing: reading.ending))")
        #expect(statistics.framesDropped > 0)
        #expect(statistics.framesWaiting == 0)
        #expect(statistics.framesDelivered == reading.frames.count)
        #expect(statistics.framesDelivered + statistics.framesDropped == statistics.framesDecoded)
        // Each delivered frame is the newest: it arrived within about one frame interval of its
        // delivery. Without dropping, a queue would hand over frames seconds old by the end.
        let ages = reading.agesAtDelivery
        let limit = Self.frameInterval + 0.25
        #expect(ages.allSatisfy { $0 < limit }, "ages at delivery \(ages.map { ($0 * 1000).rounded() }) ms")
        // Frames were skipped between deliveries, and stream time kept pace with the clock.
        #expect(zip(reading.frames, reading.frames.dropFirst()).contains { $1.index - $0.index > 1 })
        if let first = reading.frames.first, let last = reading.frames.last {
            let streamTime = last.timestamp - first.timestamp
            let wallTime = seconds(from: first.receivedAt, to: last.receivedAt)
            #expect(abs(wallTime - streamTime) < 0.5, "stream time \(streamTime) s against \(wallTime) s on the clock")
        }
        #expect(reading.ending?.kind == .streamStalled(seconds: 1))
    }

    @Test func aNamedPipeDeliversItsFramesAndEndsWhenTheWriterCloses() throws {
        let directory = try TemporaryDirectory()
        let pipe = directory.file("camera.fifo")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        var options = LiveSourceOptions(inputFormat: "rawvideo")
        options.formatOptions = [
            "video_size": "\(StreamSender.width)x\(StreamSender.height)", "pixel_format": "rgb24",
            "framerate": "\(StreamSender.frameRate)",
        ]
        // The source waits for the pipe's writer, which starts after it.
        let source = LiveVideoSource(url: pipe.path, options: options)
        let sender = try StreamSender(
            to: pipe.path, format: "rawvideo", duration: 1, encoding: ["-pix_fmt", "rgb24"],
            errorLog: directory.file("ffmpeg.log"))

        let reading = read(source)
        let sent = sender.waitUntilExit()
        #expect(sent.status == 0, "\(sent.errors)")
        // The writer closing the pipe is the end of the stream, not an error.
        #expect(reading.ending == nil)
        #expect(reading.frames.count >= 15, "\(reading.frames.count) of 30 frames")

        // Pixels: frame t s after the first delivered one is the pattern's frame k₀ + 30 t, byte
        // for byte (RGB24 in, RGB24 out).
        let reference = try referencePatternFrames(count: 40)
        let first = try #require(reading.frames.first)
        let firstNumber = try #require(reference.firstIndex(of: first.frame.pixels), "the first frame is not a pattern frame")
        for frame in reading.frames {
            let number = firstNumber + Int(((frame.timestamp - first.timestamp) / Self.frameInterval).rounded())
            #expect(number < reference.count && frame.frame.pixels == reference[number], "frame at \(frame.timestamp) s")
        }
        let statistics = source.statistics
        #expect(statistics.framesDecoded == statistics.framesDelivered + statistics.framesDropped)
    }

    @Test func anRTPSessionIsReadThroughItsSDPFile() throws {
        let directory = try TemporaryDirectory()
        let port = try unusedLocalPort()
        let description = directory.file("session.sdp")
        let sender = try StreamSender(
            to: "rtp://127.0.0.1:\(port)", format: "rtp", duration: 2,
            encoding: ["-c:v", "mpeg2video", "-sdp_file", description.path], errorLog: directory.file("ffmpeg.log"))
        // ffmpeg writes the session description when it starts sending.
        let deadline = ContinuousClock.now + .seconds(5)
        while !FileManager.default.fileExists(atPath: description.path) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        var options = LiveSourceOptions(stallTimeout: 0.5)
        options.formatOptions = ["protocol_whitelist": "file,udp,rtp"]
        let source = LiveVideoSource(url: description.path, options: options)

        let reading = read(source)
        sender.waitUntilExit()
        #expect(reading.frames.count >= 20, "\(reading.frames.count) of 60 frames; ending: \(String(describing: reading.ending))")
        #expect(try source.info().codecName == "mpeg2video")
        #expect(reading.ending?.kind == .streamStalled(seconds: 0.5))
    }

    @Test func aUDPStreamThatStopsSendingEndsWithTheStallError() throws {
        let directory = try TemporaryDirectory()
        let address = try udpAddresses()
        let timeout = 0.5
        let source = LiveVideoSource(
            url: address.read, options: LiveSourceOptions(inputFormat: "mpegts", stallTimeout: timeout))
        let sender = try StreamSender(to: address.send, format: "mpegts", duration: 1, errorLog: directory.file("ffmpeg.log"))

        let reading = read(source)
        sender.waitUntilExit()
        let last = try #require(reading.frames.last, "no frame arrived; ending: \(String(describing: reading.ending))")
        let ending = try #require(reading.ending)
        #expect(ending.kind == .streamStalled(seconds: timeout))
        #expect(ending.filePath == address.read)
        #expect(ending.description.contains(address.read))
        // Reported after the timeout, and not much later.
        let silence = seconds(from: last.receivedAt, to: reading.endedAt)
        #expect(silence >= timeout - 0.05 && silence < timeout + 1, "stall reported \(silence) s after the last frame")
        #expect(try source.next() == nil)
    }

    @Test func aNamedPipeWhoseWriterHangsStallsAndCloses() throws {
        let directory = try TemporaryDirectory()
        let pipe = directory.file("hanging.fifo")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let timeout = 0.5
        var options = LiveSourceOptions(inputFormat: "rawvideo", stallTimeout: timeout)
        options.formatOptions = ["video_size": "\(StreamSender.width)x\(StreamSender.height)", "pixel_format": "rgb24"]
        let source = LiveVideoSource(url: pipe.path, options: options)

        // A writer that sends five frames and then keeps the pipe open without writing.
        let writer = try FileHandle(forWritingTo: pipe)
        let frames = try referencePatternFrames(count: 5)
        for frame in frames { try writer.write(contentsOf: frame) }
        defer { try? writer.close() }

        let reading = read(source)
        #expect(reading.frames.count >= 1 && reading.frames.count <= 5)
        #expect(reading.ending?.kind == .streamStalled(seconds: timeout), "\(String(describing: reading.ending))")
        let closing = ContinuousClock.now
        source.close()
        #expect(seconds(from: closing, to: .now) < 1)
    }

    /// Sources that cannot be opened, and the error each gives.
    enum BadSource: CaseIterable, Sendable {
        case connectionRefused, unknownProtocol, missingPipe, missingCamera, unknownInputFormat, invalidCapacity
    }

    @Test(arguments: BadSource.allCases)
    func aSourceThatCannotBeOpenedFailsWithFFmpegsMessage(_ bad: BadSource) throws {
        let url: String
        var options = LiveSourceOptions()
        let expectedKind: VideoError.Kind
        let expectedMessage: String
        switch bad {
        case .connectionRefused:
            url = "http://127.0.0.1:\(try unusedLocalPort(type: Int32(SOCK_STREAM.rawValue)))/stream.ts"
            (expectedKind, expectedMessage) = (.streamUnavailable, "Connection refused")
        case .unknownProtocol:
            url = "nosuchprotocol://camera/stream"
            (expectedKind, expectedMessage) = (.streamUnavailable, "Protocol not found")
        case .missingPipe:
            url = "/nonexistent-actionlab-directory/camera.fifo"
            (expectedKind, expectedMessage) = (.fileNotFound, "No such file or directory")
        case .missingCamera:
            // Opened by libavdevice's video4linux2 input, which reports the missing device.
            url = "/dev/video-actionlab-missing"
            options.inputFormat = "video4linux2"
            (expectedKind, expectedMessage) = (.fileNotFound, "No such file or directory")
        case .unknownInputFormat:
            url = "udp://127.0.0.1:9"
            options.inputFormat = "no-such-format"
            (expectedKind, expectedMessage) = (.invalidOption(name: "inputFormat"), "no-such-format")
        case .invalidCapacity:
            url = "udp://127.0.0.1:9"
            options.capacity = 0
            (expectedKind, expectedMessage) = (.invalidOption(name: "capacity"), "at least 1")
        }
        let source = LiveVideoSource(url: url, options: options)
        let error = try #require(throws: VideoError.self) { try source.info() }
        #expect(error.kind == expectedKind)
        #expect(error.filePath == url)
        #expect(error.ffmpegMessage.contains(expectedMessage), "\(error)")
        #expect(error.description.contains(url))
        // next() reports the same error, once.
        #expect(throws: error) { try source.next() }
        #expect(try source.next() == nil)
    }

    @Test func anOptionFFmpegDoesNotKnowIsAnError() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.ts")
        try FFmpegTool.makeTestPattern(at: clip, width: 160, height: 120, duration: 0.5, extra: ["-c:v", "mpeg2video"])
        var options = LiveSourceOptions()
        options.formatOptions = ["no_such_option": "1"]
        let source = LiveVideoSource(url: clip.path, options: options)
        let error = try #require(throws: VideoError.self) { try source.info() }
        #expect(error.kind == .invalidOption(name: "no_such_option"))

        // The same file without it opens and is read to its end.
        let plain = LiveVideoSource(url: clip.path)
        let reading = read(plain)
        #expect(reading.ending == nil && reading.frames.count >= 1)
    }

    /// libavdevice is loaded when an input format is named, not linked: its `lavfi` device (a
    /// filter graph as a live source) opens and delivers its frames.
    @Test func aCaptureDeviceOfLibavdeviceOpens() throws {
        let source = LiveVideoSource(url: "testsrc2=size=64x48:rate=10:duration=1", options: LiveSourceOptions(inputFormat: "lavfi"))
        let reading = read(source)
        #expect(reading.ending == nil, "\(String(describing: reading.ending))")
        #expect(reading.frames.count >= 1 && reading.frames.allSatisfy { $0.frame.width == 64 && $0.frame.height == 48 },
                "\(reading.frames.count) frames")
    }

    @Test func nothingSentWithinTheOpeningTimeoutIsAStall() throws {
        let address = try udpAddresses()
        let source = LiveVideoSource(
            url: address.read, options: LiveSourceOptions(inputFormat: "mpegts", openingTimeout: 0.5))
        let started = ContinuousClock.now
        let error = try #require(throws: VideoError.self) { try source.info() }
        #expect(error.kind == .streamStalled(seconds: 0.5))
        #expect(error.filePath == address.read)
        let waited = seconds(from: started, to: .now)
        #expect(waited >= 0.45 && waited < 1.5, "gave up after \(waited) s")
    }

    @Test func closingStopsAWaitingSourcePromptly() throws {
        let address = try udpAddresses()
        let source = LiveVideoSource(
            url: address.read, options: LiveSourceOptions(inputFormat: "mpegts", openingTimeout: 60))
        Thread.sleep(forTimeInterval: 0.2)
        let closing = ContinuousClock.now
        source.close()
        source.close()
        #expect(seconds(from: closing, to: .now) < 1)
        #expect(try source.next() == nil)
        // Dropping a source that waits for a stream also stops its thread (deinit closes it).
        for _ in 0..<3 { _ = LiveVideoSource(url: address.read, options: LiveSourceOptions(inputFormat: "mpegts")) }
    }
}
