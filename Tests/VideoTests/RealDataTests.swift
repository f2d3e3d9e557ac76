import ActionLabTestSupport
import Foundation
import Testing
import Video

/// Real files from Debian's opencv-doc, fetched by `scripts/setup` into `data/opencv/`.
@Suite struct RealDataTests {
    @Test func vtestFirstTenSecondsAreOneHundredFramesAtTenPerSecond() throws {
        let video = try TestData.file("opencv/vtest.avi")
        let decoder = try VideoDecoder(url: video)
        let info = decoder.info
        #expect(info.codecName == "msmpeg4v3")
        #expect(info.storedWidth == 768 && info.storedHeight == 576)
        #expect(info.rotation == 0)
        #expect(abs((info.nominalFrameRate ?? 0) - 10) < 1e-9)
        #expect(abs((info.duration ?? 0) - 79.5) < 0.05)
        #expect(info.claimedFrameCount == 795)

        var timestamps: [Double] = []
        while let frame = try decoder.next(), frame.timestamp < 10 {
            #expect(frame.width == 768 && frame.height == 576)
            timestamps.append(frame.timestamp)
        }
        #expect(timestamps.count == 100)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        for (index, timestamp) in timestamps.enumerated() {
            #expect(abs(timestamp - Double(index) / 10) < 1e-9, "frame \(index) at \(timestamp) s")
        }
    }

    @Test func vtestDecodesCompletelyThroughThePipeline() throws {
        let video = try TestData.file("opencv/vtest.avi")
        let pipeline = FramePipeline(url: video, options: VideoDecodingOptions(maximumDimension: 256), capacity: 4)
        var count = 0
        var lastTimestamp = -1.0
        while let frame = try pipeline.next() {
            #expect(frame.timestamp > lastTimestamp)
            #expect(frame.width == 256 && frame.height == 192)
            lastTimestamp = frame.timestamp
            count += 1
        }
        #expect(count == 795)
        #expect(abs(lastTimestamp - 79.4) < 1e-9)
    }

    @Test func messiPhotoIsOneFrameOfItsSize() throws {
        let photo = try TestData.file("opencv/messi5.jpg")
        let (decoder, frames) = try decodeAll(photo)
        #expect(decoder.info.codecName == "mjpeg")
        #expect(decoder.info.storedWidth == 548 && decoder.info.storedHeight == 342)
        #expect(frames.count == 1)
        #expect(frames.first?.timestamp == 0)
        #expect(frames.first.map { ($0.width, $0.height) } ?? (0, 0) == (548, 342))
        let reference = try FFmpegTool.referenceRGB(of: photo)
        #expect(meanAbsoluteDifference(frames.first?.pixels ?? [], reference) < 1.0)
    }
}
