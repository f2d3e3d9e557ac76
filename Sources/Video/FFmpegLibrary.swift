import CFFmpeg

/// Facts about the FFmpeg libraries ActionLab decodes video with, for provenance records.
///
/// Decoding itself arrives with the `[video-pose]` work; this type only reports which FFmpeg the
/// process is linked against.
public enum FFmpegLibrary {
    /// FFmpeg's release string as the library reports it (`av_version_info`), such as `5.1.6-0+deb12u1`.
    public static var versionInfo: String {
        guard let info = av_version_info() else { return "unknown" }
        return String(cString: info)
    }

    /// The linked libavformat, libavcodec, libswscale and libavutil versions as `major.minor.micro`.
    public static var libraryVersions: [String: String] {
        [
            "libavformat": format(avformat_version()),
            "libavcodec": format(avcodec_version()),
            "libswscale": format(swscale_version()),
            "libavutil": format(avutil_version()),
        ]
    }

    /// Splits FFmpeg's packed `AV_VERSION_INT` (major << 16 | minor << 8 | micro) into text.
    private static func format(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }
}
