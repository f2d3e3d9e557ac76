import Foundation

/// A video, image or live stream that could not be opened or decoded: which file or URL, what
/// went wrong, and FFmpeg's own message.
///
/// Every throwing function of this module throws `VideoError`. ``kind`` says what failed in terms
/// a caller can switch over; ``filePath`` names the file (or a live stream's URL);
/// ``ffmpegFunction`` and ``ffmpegMessage`` are the FFmpeg call that failed and FFmpeg's text
/// for its return code (`av_strerror`), or nil and this module's own explanation when the
/// problem was found without an FFmpeg error code (a packet the demuxer flagged as corrupt, for
/// example). ``ffmpegLog`` adds the warnings and errors FFmpeg logged meanwhile, which are
/// usually the most specific explanation ("moov atom not found").
public struct VideoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is.
    public enum Kind: Equatable, Sendable {
        /// No file exists at the path.
        case fileNotFound
        /// The file exists but FFmpeg does not recognize it as a video or image, or cannot read
        /// its header (an MP4 file cut before its `moov` index, a text file, for example).
        case unrecognizedFormat
        /// The file is a media file without a video stream (audio only, for example).
        case noVideoStream
        /// This FFmpeg build has no decoder for the video stream's codec.
        case decoderMissing(codec: String)
        /// The data stopped or became undecodable part way through (a truncated or damaged file).
        ///
        /// `framesDecoded` frames were delivered before the failure; they are valid, but the file
        /// as a whole should be treated as failed, since its end is missing or unreliable.
        case corruptData(framesDecoded: Int)
        /// Another FFmpeg call failed (out of memory, an I/O error, an unsupported pixel format);
        /// the associated value names it.
        case libraryCall(function: String)
        /// A live stream could not be opened: nothing serves the address (connection refused),
        /// the protocol is unknown to this FFmpeg, the device is busy or not allowed;
        /// ``VideoError/ffmpegMessage`` says which.
        case streamUnavailable
        /// A live stream sent no video data for `seconds` seconds (its timeout): the sender
        /// stopped without ending the stream, or the network or device stalled. Raised while
        /// opening (``LiveSourceOptions/openingTimeout``) or reading
        /// (``LiveSourceOptions/stallTimeout``).
        case streamStalled(seconds: Double)
        /// An option FFmpeg did not recognize for this input, an input format it does not have
        /// (`name` is then `inputFormat`), or a ``LiveSourceOptions`` value out of range; `name`
        /// is the option's.
        case invalidOption(name: String)
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The path of the video or image file, as given to ``VideoDecoder/init(url:options:)``, or
    /// the live stream's URL, as given to ``LiveVideoSource/init(url:options:)``.
    public var filePath: String
    /// The FFmpeg function whose failure this reports, or nil when FFmpeg returned no error code.
    public var ffmpegFunction: String?
    /// FFmpeg's text for the error code (`av_strerror`), or this module's explanation.
    public var ffmpegMessage: String
    /// The warnings and errors FFmpeg logged during the failing call, oldest first, at most 8,
    /// each as `component: text` (`mov,mp4,m4a,3gp,3g2,mj2: moov atom not found`); often empty.
    public var ffmpegLog: [String]

    /// Creates an error; the module creates these, callers normally only inspect them.
    public init(
        kind: Kind, filePath: String, ffmpegFunction: String? = nil, ffmpegMessage: String, ffmpegLog: [String] = []
    ) {
        self.kind = kind
        self.filePath = filePath
        self.ffmpegFunction = ffmpegFunction
        self.ffmpegMessage = ffmpegMessage
        self.ffmpegLog = ffmpegLog
    }

    public var description: String {
        var text = "video error: \(kind.summary) in '\(filePath)': "
        if let ffmpegFunction { text += "\(ffmpegFunction): " }
        text += ffmpegMessage
        if !ffmpegLog.isEmpty {
            let lines = ffmpegLog.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            text += " (FFmpeg log: \(lines.joined(separator: "; ")))"
        }
        return text
    }

    public var errorDescription: String? { description }
}

extension VideoError.Kind {
    /// A short English phrase for messages.
    var summary: String {
        switch self {
        case .fileNotFound: "file not found"
        case .unrecognizedFormat: "not a video or image FFmpeg can read"
        case .noVideoStream: "no video stream"
        case let .decoderMissing(codec): "no decoder for codec '\(codec)'"
        case let .corruptData(framesDecoded): "truncated or corrupt data after \(framesDecoded) decoded frames"
        case let .libraryCall(function): "\(function) failed"
        case .streamUnavailable: "live stream unavailable"
        case let .streamStalled(seconds): "live stream stalled (no data for \(seconds) s)"
        case let .invalidOption(name): "invalid option '\(name)'"
        }
    }
}
