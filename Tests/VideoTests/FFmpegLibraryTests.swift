import ActionLabTestSupport
import Testing
import Video

@Suite struct FFmpegLibraryTests {
    @Test func reportsLinkedLibraryVersions() {
        let versions = FFmpegLibrary.libraryVersions
        #expect(Set(versions.keys) == ["libavformat", "libavcodec", "libswscale", "libavutil"])
        for (name, version) in versions {
            let parts = version.split(separator: ".").compactMap { Int($0) }
            #expect(parts.count == 3, "\(name) version \(version) is not major.minor.micro")
            // Debian 12 ships FFmpeg 5.1: libavformat 59, libavcodec 59, libavutil 57.
            #expect((parts.first ?? 0) >= 5, "\(name) major version \(version) is implausibly old")
        }
        #expect(FFmpegLibrary.versionInfo != "unknown")
    }
}

@Suite struct FFmpegLogLevelTests {
    @Test func quietStillRecordsFFmpegsMessagesInErrors() throws {
        let previous = FFmpegLibrary.logLevel
        FFmpegLibrary.logLevel = .quiet
        defer { FFmpegLibrary.logLevel = previous }
        #expect(FFmpegLibrary.logLevel == .quiet)

        let directory = try TemporaryDirectory()
        let file = try writeFixture(String(repeating: "not a video\n", count: 100), named: "noise.mp4", in: directory.url)
        let error = try #require(throws: VideoError.self) { try VideoDecoder(url: file) }
        #expect(error.kind == .unrecognizedFormat)
        #expect(error.ffmpegLog.contains { $0.contains("moov atom not found") }, "\(error)")
    }
}
