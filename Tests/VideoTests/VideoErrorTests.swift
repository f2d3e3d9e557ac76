import ActionLabTestSupport
import Foundation
import Testing
import Video

@Suite struct VideoErrorTests {
    /// The error `body` throws, failing the test when it throws none or another type.
    private func videoError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> VideoError? {
        do {
            try body()
            Issue.record("expected a VideoError, nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as VideoError {
            return error
        } catch {
            Issue.record("expected a VideoError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func missingFile() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("nothing-here.mp4")
        let error = videoError { _ = try VideoDecoder(url: missing) }
        #expect(error?.kind == .fileNotFound)
        #expect(error?.filePath == missing.path)
        #expect(error?.ffmpegFunction == "avformat_open_input")
        #expect(error?.ffmpegMessage == "No such file or directory")
        #expect(error?.description.contains(missing.path) == true)
    }

    @Test func textFileIsNotAVideo() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture("label,start,end\nsquat,0,2\n", named: "annotations.mp4", in: directory.url)
        let error = videoError { _ = try VideoDecoder(url: file) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.filePath == file.path)
        #expect(error?.ffmpegMessage == "Invalid data found when processing input")
    }

    @Test func onlyLocalFilesAreRead() throws {
        let directory = try TemporaryDirectory()
        // An HLS playlist pointing at a network URL: FFmpeg must not follow it.
        let playlist = try writeFixture(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhttp://127.0.0.1:9/segment.ts\n#EXT-X-ENDLIST\n",
            named: "remote.m3u8", in: directory.url)
        let error = videoError { _ = try VideoDecoder(url: playlist) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.filePath == playlist.path)
        #expect(error?.ffmpegLog.contains { $0.contains("not on whitelist") } == true, "\(String(describing: error))")
    }

    @Test func fileNameThatLooksLikeAURLDecodes() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("http:clip.mp4")
        try FFmpegTool.makeTestPattern(at: directory.file("clip.mp4"), duration: 0.2)
        try FileManager.default.moveItem(at: directory.file("clip.mp4"), to: clip)
        let (_, frames) = try decodeAll(clip)
        #expect(frames.count == 6)
    }

    @Test func audioOnlyFileHasNoVideoStream() throws {
        let directory = try TemporaryDirectory()
        let audio = directory.file("tone.wav")
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", audio.path])
        let error = videoError { _ = try VideoDecoder(url: audio) }
        #expect(error?.kind == .noVideoStream)
        #expect(error?.filePath == audio.path)
    }

    @Test func unknownCodecHasNoDecoder() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.avi")
        try FFmpegTool.makeTestPattern(at: clip, duration: 0.2, extra: ["-c:v", "mpeg4"])
        // Replace the AVI's FourCC (stream header and bitmap header) with one no codec uses.
        let data = try Data(contentsOf: clip)
        let fourCC = Data("FMP4".utf8)
        var patched = data
        var searchStart = patched.startIndex
        while let range = patched.range(of: fourCC, in: searchStart..<patched.endIndex) {
            patched.replaceSubrange(range, with: Data("ZZZZ".utf8))
            searchStart = range.upperBound
        }
        #expect(patched != data)
        let unknown = directory.file("unknown-codec.avi")
        try patched.write(to: unknown)

        let error = videoError { _ = try VideoDecoder(url: unknown) }
        #expect(error?.kind == .decoderMissing(codec: "none"))
        #expect(error?.filePath == unknown.path)
    }

    @Test func mp4CutBeforeItsIndexIsUnrecognized() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("pattern.mp4")
        try FFmpegTool.makeTestPattern(at: clip)  // the moov index is written at the end
        let truncated = try truncate(clip, keeping: 0.6, in: directory)
        let error = videoError { _ = try VideoDecoder(url: truncated) }
        #expect(error?.kind == .unrecognizedFormat)
        #expect(error?.filePath == truncated.path)
        // FFmpeg's own explanation, from its log.
        #expect(error?.ffmpegLog.contains { $0.hasSuffix("moov atom not found") } == true, "\(String(describing: error))")
        #expect(error?.description.contains("moov atom not found") == true)
    }

    /// Truncated files whose headers survive: frames decode until the data runs out, then the
    /// error names the file and says how many frames were delivered.
    @Test(arguments: [
        ("pattern.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
        ("pattern.avi", ["-c:v", "mpeg4"]),
    ])
    func truncatedFileFailsWithTheFramesDecodedSoFar(name: String, encoding: [String]) throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file(name)
        try FFmpegTool.makeTestPattern(at: clip, extra: encoding)
        let truncated = try truncate(clip, keeping: 0.6, in: directory)

        let decoder = try VideoDecoder(url: truncated)
        #expect(decoder.info.claimedFrameCount == 60)
        var delivered = 0
        let error = videoError {
            while try decoder.next() != nil { delivered += 1 }
        }
        #expect(error?.kind == .corruptData(framesDecoded: delivered))
        #expect(error?.filePath == truncated.path)
        #expect(error?.ffmpegLog.isEmpty == false, "FFmpeg logged nothing about \(name)")
        #expect(delivered > 10 && delivered < 60, "\(delivered) frames before the error")
        #expect(decoder.framesDecoded == delivered)
        // The decoder is closed after the error.
        #expect(try decoder.next() == nil)
    }

    /// A copy of the first `fraction` of `url`'s bytes, named `truncated-NAME`.
    private func truncate(_ url: URL, keeping fraction: Double, in directory: TemporaryDirectory) throws -> URL {
        let data = try Data(contentsOf: url)
        let truncated = directory.file("truncated-\(url.lastPathComponent)")
        try data.prefix(Int(Double(data.count) * fraction)).write(to: truncated)
        return truncated
    }
}
