internal import CFFmpeg
import Foundation

/// Decodes a video or still image file into upright RGB frames in display order, one at a time.
///
/// Opening reads the headers (``info``); ``next()`` then delivers frames one by one, so memory
/// stays bounded whatever the length of the video. Frames are:
/// - in display order, with ``VideoFrame/timestamp`` in seconds from the first displayed frame
///   (presentation timestamps, so start offsets and MP4 edit lists are honoured);
/// - strictly increasing in time: a frame whose timestamp is not after the previous one's is
///   dropped and counted in ``droppedFrameCount``;
/// - turned upright by the stream's display-matrix rotation (``VideoInfo/rotation``), so their
///   width and height are the displayed ones;
/// - optionally downscaled (``VideoDecodingOptions/maximumDimension``).
///
/// Still images (JPEG, PNG and the other formats of FFmpeg's `image2` demuxer) are one frame at
/// time 0.
///
/// Frames are never resampled to a constant frame rate here: timestamps are exact, and the pose
/// sequences made from them are resampled on those timestamps (`PoseSequence.resampled(to:)`).
///
/// ## Damaged files
/// Decoding is strict. The first sign of damage — a read error, a packet the demuxer flags as
/// corrupt (truncated), a packet the decoder rejects, or a frame it reports as containing errors
/// — makes ``next()`` throw ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` with the
/// number of frames delivered so far, and the decoder closes. The frames already delivered are
/// valid, but callers should fail the file as a whole rather than use a silently shortened
/// sequence. A file whose stream ends cleanly, even with fewer frames than its header claims, is
/// not an error (edit lists and dropped duplicates make the claim unreliable).
///
/// ## Resources and threads
/// The decoder owns its FFmpeg demuxer, decoder and scaler and frees them in ``close()``, at the
/// end of the file, after an error, or in `deinit`. It is not safe to use from two threads at once;
/// ``FramePipeline`` runs one on its own thread.
public final class VideoDecoder {
    /// The file being decoded.
    public let url: URL
    /// What the file's headers say about its video stream.
    public let info: VideoInfo
    /// How frames are delivered.
    public let options: VideoDecodingOptions
    /// The number of frames delivered by ``next()`` so far.
    public var framesDecoded: Int { decoder.framesDecoded }
    /// The number of decoded frames dropped because their timestamp was not after the previous
    /// delivered frame's (duplicated frames of variable-frame-rate recordings, for example).
    public var droppedFrameCount: Int { decoder.droppedFrameCount }

    /// The demuxer, decoder and converter, shared with ``LiveVideoSource``.
    private let decoder: StreamDecoder
    private let location: VideoFileLocation

    /// Opens a video or image file and reads its headers.
    /// - Parameters:
    ///   - url: a file URL.
    ///   - options: how frames are delivered.
    /// - Throws: ``VideoError`` with FFmpeg's message:
    ///   ``VideoError/Kind-swift.enum/fileNotFound`` when nothing exists at the path;
    ///   ``VideoError/Kind-swift.enum/unrecognizedFormat`` when FFmpeg cannot read it as a video
    ///   or image (including an MP4 cut before its index);
    ///   ``VideoError/Kind-swift.enum/noVideoStream`` for a media file without video;
    ///   ``VideoError/Kind-swift.enum/decoderMissing(codec:)`` when this FFmpeg cannot decode
    ///   the video codec; ``VideoError/Kind-swift.enum/libraryCall(function:)`` when FFmpeg fails
    ///   otherwise (no permission, out of memory).
    public init(url: URL, options: VideoDecodingOptions = VideoDecodingOptions()) throws(VideoError) {
        let location = VideoFileLocation(path: url.path, log: FFmpegLogRecorder())
        // Opening does not settle: what FFmpeg logs while reading the stream information goes
        // with the error of a file that then fails on its first frame (a truncated MP4).
        decoder = try location.log.recording(settles: false) { () throws(VideoError) in
            let format = try location.perform(classifying: Self.openingFailureKind) { () throws(FFmpegFailure) in
                try FormatContext(openingPath: url.path)
            }
            return try StreamDecoder(format: format, options: options, location: location, damagePolicy: .fail)
        }
        self.url = url
        self.options = options
        self.location = location
        info = decoder.info
    }

    /// Releases the file and every FFmpeg resource; later calls to ``next()`` return nil.
    ///
    /// Safe to call more than once; without it, the resources are released with the decoder.
    public func close() { decoder.close() }

    /// Decodes the next frame in display order.
    /// - Returns: the frame, or nil after the last frame (and after ``close()``).
    /// - Throws: ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` with FFmpeg's message
    ///   when the file is truncated or damaged (see "Damaged files" above), also when it holds no
    ///   decodable frame at all; ``VideoError/Kind-swift.enum/libraryCall(function:)`` when
    ///   FFmpeg fails for another reason (out of memory, a pixel format it cannot convert). The
    ///   decoder is closed after throwing.
    public func next() throws(VideoError) -> VideoFrame? {
        try location.log.recording { () throws(VideoError) in
            // A file's demuxer blocks, so it never answers "no packet yet"; were it to, asking
            // again is right.
            while true {
                switch try decoder.next() {
                case let .frame(frame): return frame
                case .endOfStream: return nil
                case .noPacketYet: continue
                }
            }
        }
    }

    /// The kind of a failure to open a file.
    private static func openingFailureKind(_ failure: FFmpegFailure) -> VideoError.Kind {
        switch failure.code {
        case cffmpeg_averror_enoent(): .fileNotFound
        case cffmpeg_averror_invaliddata(): .unrecognizedFormat
        default:
            // A header that cannot be parsed into streams means FFmpeg cannot read the file.
            failure.function == "avformat_find_stream_info" ? .unrecognizedFormat : .libraryCall(function: failure.function)
        }
    }
}
