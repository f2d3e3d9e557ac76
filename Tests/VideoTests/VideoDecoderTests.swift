import ActionLabTestSupport
import Foundation
import Testing
import Video

@Suite struct VideoDecoderTests {
    @Test func decodesAConstantFrameRateClipInDisplayOrder() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip)

        let (decoder, frames) = try decodeAll(clip)
        let info = decoder.info
        #expect(info.storedWidth == 320 && info.storedHeight == 240)
        #expect(info.displayWidth == 320 && info.displayHeight == 240)
        #expect(info.rotation == 0)
        #expect(info.codecName == "h264")
        #expect(info.pixelFormatName == "yuv420p")
        #expect(info.claimedFrameCount == 60)
        #expect(abs((info.nominalFrameRate ?? 0) - 30) < 1e-9)
        #expect(abs((info.duration ?? 0) - 2) < 0.05)
        #expect(info.pixelAspectRatio == 1)

        #expect(frames.count == 60)
        #expect(decoder.framesDecoded == 60)
        #expect(decoder.droppedFrameCount == 0)
        for (index, frame) in frames.enumerated() {
            #expect(frame.width == 320 && frame.height == 240)
            #expect(abs(frame.timestamp - Double(index) / 30) < 1e-9, "frame \(index) at \(frame.timestamp) s")
        }
    }

    @Test func pixelsMatchTheFFmpegTool() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip)
        let reference = try FFmpegTool.referenceRGB(of: clip, frameCount: 3)

        let (_, frames) = try decodeAll(clip)
        let decoded = frames.prefix(3).flatMap(\.pixels)
        // Same libswscale conversion (bicubic, BT.601 limited range): only rounding may differ.
        #expect(meanAbsoluteDifference(decoded, reference) < 1.0)
    }

    @Test(arguments: [90, 180, 270])
    func appliesTheDisplayMatrixRotation(degrees: Int) throws {
        let directory = try TemporaryDirectory()
        let upright = directory.file("upright.mp4")
        let rotated = directory.file("rotated-\(degrees).mp4")
        try FFmpegTool.makeTestPattern(at: upright, duration: 0.5)
        // FFmpeg 5.1 writes the `rotate` tag as a display matrix when stream-copying into MP4.
        try FFmpegTool.run(["-i", upright.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", rotated.path])

        let (uprightDecoder, uprightFrames) = try decodeAll(upright)
        let (decoder, frames) = try decodeAll(rotated)
        #expect(uprightDecoder.info.rotation == 0)
        #expect(decoder.info.rotation == degrees)
        let swapped = degrees != 180
        #expect(decoder.info.displayWidth == (swapped ? 240 : 320))
        #expect(decoder.info.displayHeight == (swapped ? 320 : 240))
        #expect(frames.count == uprightFrames.count)

        // The same stored pixels, only turned: exactly the upright clip's frames rotated.
        for (frame, uprightFrame) in zip(frames, uprightFrames) {
            #expect(frame.width == decoder.info.displayWidth && frame.height == decoder.info.displayHeight)
            #expect(frame == rotatedCounterclockwise(uprightFrame, by: degrees))
        }
        // And the direction agrees with the ffmpeg tool's own automatic rotation.
        let reference = try FFmpegTool.referenceRGB(of: rotated)
        #expect(meanAbsoluteDifference(frames[0].pixels, reference) < 1.0)
    }

    @Test func downscalesToTheMaximumDimensionKeepingTheAspectRatio() throws {
        let directory = try TemporaryDirectory()
        let upright = directory.file("upright.mp4")
        let rotated = directory.file("rotated.mp4")
        try FFmpegTool.makeTestPattern(at: upright, duration: 0.2)
        try FFmpegTool.run(["-i", upright.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated.path])

        let options = VideoDecodingOptions(maximumDimension: 160)
        let (_, frames) = try decodeAll(upright, options: options)
        #expect(frames.allSatisfy { $0.width == 160 && $0.height == 120 })
        // Shrinking averages areas, like the ffmpeg tool's `scale` filter with `flags=area`.
        let reference = try FFmpegTool.run([
            "-i", upright.path, "-frames:v", "1", "-vf", "scale=160:120:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        #expect(meanAbsoluteDifference(frames[0].pixels, reference) < 1.0)
        let (_, rotatedFrames) = try decodeAll(rotated, options: options)
        #expect(rotatedFrames.allSatisfy { $0.width == 120 && $0.height == 160 })
        // Never enlarged.
        let (_, fullSize) = try decodeAll(upright, options: VideoDecodingOptions(maximumDimension: 1000))
        #expect(fullSize.first.map { ($0.width, $0.height) } ?? (0, 0) == (320, 240))
    }

    @Test func reportsNonSquarePixelsWithoutStretchingFrames() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("anamorphic.mp4")
        try FFmpegTool.makeTestPattern(
            at: clip, duration: 0.2, extra: ["-vf", "setsar=8/9", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let (decoder, frames) = try decodeAll(clip)
        #expect(abs(decoder.info.pixelAspectRatio - 8.0 / 9.0) < 1e-12)
        #expect(frames.allSatisfy { $0.width == 320 && $0.height == 240 })
    }

    @Test func reportsExactTimestampsOfAVariableFrameRateClip() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("variable.mp4")
        // Frame k at 0.004 k² seconds, in a millisecond time base: every gap is different.
        try FFmpegTool.run([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-frames:v", "20",
            "-vf", "settb=1/1000,setpts=N*N*4", "-fps_mode", "passthrough", "-enc_time_base", "1/1000",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path,
        ])
        let (decoder, frames) = try decodeAll(clip)
        #expect(frames.count == 20)
        #expect(decoder.droppedFrameCount == 0)
        for (index, frame) in frames.enumerated() {
            let expected = 0.004 * Double(index * index)
            #expect(abs(frame.timestamp - expected) < 1e-9, "frame \(index) at \(frame.timestamp) s, expected \(expected)")
        }
    }

    @Test func dropsFramesWhoseTimestampDoesNotIncrease() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mkv")
        let clip = directory.file("duplicated.mkv")
        try FFmpegTool.makeTestPattern(at: source, width: 160, height: 120, frameRate: 10, duration: 2, extra: ["-c:v", "mjpeg"])
        // Matroska allows equal timestamps: give every pair of frames the same one (ms units).
        try FFmpegTool.run(["-i", source.path, "-c", "copy", "-bsf:v", "setts=ts=trunc(N/2)*100", clip.path])

        let (decoder, frames) = try decodeAll(clip)
        #expect(frames.count == 10)
        #expect(decoder.framesDecoded == 10)
        #expect(decoder.droppedFrameCount == 10)
        for (index, frame) in frames.enumerated() {
            #expect(abs(frame.timestamp - Double(index) / 10) < 1e-9)
        }
    }

    @Test func measuresTimeFromTheFirstDisplayedFrameOfAStreamWithAStartOffset() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("offset.ts")
        // MPEG-TS starts its clock at 1.4 s; the offset adds 10 s more.
        try FFmpegTool.makeTestPattern(
            at: clip, duration: 1, extra: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-output_ts_offset", "10"])

        let (_, frames) = try decodeAll(clip)
        #expect(frames.count == 30)
        #expect(frames.first?.timestamp == 0)
        for (index, frame) in frames.enumerated() {
            #expect(abs(frame.timestamp - Double(index) / 30) < 1e-4)
        }
    }

    @Test func honoursAnEditListThatStartsAfterTheFirstKeyframe() throws {
        let directory = try TemporaryDirectory()
        let full = directory.file("full.mp4")
        let trimmed = directory.file("trimmed.mp4")
        try FFmpegTool.makeTestPattern(at: full)
        // Stream copy from 0.5 s: the packets start at the keyframe at 0, and an edit list hides
        // the first 15 frames.
        try FFmpegTool.run(["-ss", "0.5", "-i", full.path, "-c", "copy", trimmed.path])

        let (_, fullFrames) = try decodeAll(full)
        let (_, frames) = try decodeAll(trimmed)
        #expect(frames.count == 45)
        #expect(frames.first?.timestamp == 0)
        #expect(frames.first?.pixels == fullFrames[15].pixels)
        #expect(abs((frames.last?.timestamp ?? 0) - 44.0 / 30) < 1e-9)
    }

    @Test(arguments: ["png", "jpg"])
    func decodesAStillImageAsOneFrameAtTimeZero(fileExtension: String) throws {
        let directory = try TemporaryDirectory()
        let image = directory.file("still.\(fileExtension)")
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc2=size=200x150", "-frames:v", "1", image.path])

        let (decoder, frames) = try decodeAll(image)
        #expect(decoder.info.storedWidth == 200 && decoder.info.storedHeight == 150)
        #expect(frames.count == 1)
        #expect(frames.first?.timestamp == 0)
        #expect(frames.first.map { ($0.width, $0.height) } ?? (0, 0) == (200, 150))
        let reference = try FFmpegTool.referenceRGB(of: image)
        // PNG is RGB already (exact); JPEG goes through full-range YUV like the tool's.
        #expect(meanAbsoluteDifference(frames.first?.pixels ?? [], reference) < (fileExtension == "png" ? 0.001 : 1.0))
    }

    @Test func closeIsIdempotentAndEndsDecoding() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip, duration: 0.5)

        let decoder = try VideoDecoder(url: clip)
        #expect(try decoder.next() != nil)
        decoder.close()
        decoder.close()
        #expect(try decoder.next() == nil)
        #expect(decoder.framesDecoded == 1)
    }
}
