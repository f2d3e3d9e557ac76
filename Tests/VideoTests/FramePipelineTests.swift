import ActionLabTestSupport
import Foundation
import Testing
import Video

@Suite struct FramePipelineTests {
    /// Reads every frame of `pipeline`, pausing `delay` seconds after each as a slow consumer.
    private func readAll(_ pipeline: FramePipeline, delay: TimeInterval = 0) throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = try pipeline.next() {
            frames.append(frame)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        }
        return frames
    }

    @Test(arguments: [1, 8])
    func deliversTheDecodersFramesInOrder(capacity: Int) throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip, duration: 1)
        let (decoder, expected) = try decodeAll(clip)

        let pipeline = FramePipeline(url: clip, capacity: capacity)
        #expect(try pipeline.info() == decoder.info)
        // A consumer slower than decoding: the producer must wait on the full queue.
        let frames = try readAll(pipeline, delay: 0.002)
        #expect(frames == expected)
        #expect(try pipeline.next() == nil)
    }

    @Test func closingEarlyStopsDecodingAndIsIdempotent() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip, duration: 4)

        let pipeline = FramePipeline(url: clip, capacity: 2)
        for _ in 0..<3 { #expect(try pipeline.next() != nil) }
        pipeline.close()
        pipeline.close()
        #expect(try pipeline.next() == nil)

        // Dropping an unread pipeline also stops its thread (deinit closes it).
        for _ in 0..<5 { _ = FramePipeline(url: clip, capacity: 1) }
    }

    @Test func reportsAFileThatCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("missing.mp4")
        let pipeline = FramePipeline(url: missing)
        let error = try #require(throws: VideoError.self) { try pipeline.info() }
        #expect(error.kind == .fileNotFound)
        #expect(error.filePath == missing.path)
        // next() reports the same error, once.
        #expect(throws: error) { try pipeline.next() }
        #expect(try pipeline.next() == nil)
    }

    @Test func reportsDamageAfterTheFramesBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.avi")
        try FFmpegTool.makeTestPattern(at: clip, extra: ["-c:v", "mpeg4"])
        let data = try Data(contentsOf: clip)
        let truncated = directory.file("truncated.avi")
        try data.prefix(data.count / 2).write(to: truncated)

        let pipeline = FramePipeline(url: truncated, capacity: 2)
        var delivered = 0
        do {
            while try pipeline.next() != nil { delivered += 1 }
            Issue.record("the truncated file decoded without an error")
        } catch {
            #expect(error.kind == .corruptData(framesDecoded: delivered))
            #expect(error.filePath == truncated.path)
        }
        #expect(delivered > 0)
        #expect(try pipeline.next() == nil)
    }
}
