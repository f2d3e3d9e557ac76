internal import CFFmpeg

/// Facts about the FFmpeg libraries ActionLab decodes video with, for provenance records.
///
/// Decoding is ``VideoDecoder``'s; this type reports which FFmpeg the process is linked against and
/// sets how much of FFmpeg's log is printed.
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

    /// How much of FFmpeg's own log is printed to standard error (`av_log_set_level`).
    public enum LogLevel: Sendable, CaseIterable {
        /// Nothing (`AV_LOG_QUIET`).
        case quiet
        /// Errors only (`AV_LOG_ERROR`).
        case errors
        /// Errors and warnings (`AV_LOG_WARNING`).
        case warnings
        /// Also informational messages (`AV_LOG_INFO`), FFmpeg's default.
        case information

        var ffmpegValue: Int32 {
            switch self {
            case .quiet: AV_LOG_QUIET
            case .errors: AV_LOG_ERROR
            case .warnings: AV_LOG_WARNING
            case .information: AV_LOG_INFO
            }
        }
    }

    /// How much of FFmpeg's log is printed to standard error, for the whole process.
    ///
    /// Printing only: the warnings and errors FFmpeg logs while a file fails are recorded in the
    /// ``VideoError`` (``VideoError/ffmpegLog``) at every level, so a command-line tool that
    /// reports errors itself (or draws a progress bar) can set `.quiet`. Reading returns the
    /// nearest level at or below FFmpeg's current one.
    public static var logLevel: LogLevel {
        get {
            let current = av_log_get_level()
            return LogLevel.allCases.last { $0.ffmpegValue <= current } ?? .quiet
        }
        set { av_log_set_level(newValue.ffmpegValue) }
    }

    /// Splits FFmpeg's packed `AV_VERSION_INT` (major << 16 | minor << 8 | micro) into text.
    private static func format(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }
}
