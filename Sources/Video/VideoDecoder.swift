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
    public private(set) var framesDecoded = 0
    /// The number of decoded frames dropped because their timestamp was not after the previous
    /// delivered frame's (duplicated frames of variable-frame-rate recordings, for example).
    public private(set) var droppedFrameCount = 0

    /// The FFmpeg objects of an open decoder, each owning one C resource.
    private struct Resources {
        var format: FormatContext
        var codec: CodecContext
        var packet: Packet
        var frame: Frame
        var converter: FrameConverter
    }

    /// The FFmpeg objects; nil once closed.
    private var resources: Resources?
    private let location: VideoFileLocation
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The step, in time-base units, assumed for a frame without any timestamp.
    private let fallbackFrameDuration: Int64
    /// Whether the end of the file was reached and the decoder is being drained.
    private var isDraining = false
    /// The first delivered frame's presentation time, in time-base units.
    private var firstTimestamp: Int64?
    /// The last delivered frame's presentation time, in time-base units.
    private var lastTimestamp: Int64?

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
        let opened = try location.log.recording { () throws(VideoError) in
            try Self.open(url, options: options, location: location)
        }
        self.url = url
        self.options = options
        self.location = location
        info = opened.info
        resources = opened.resources
        streamIndex = opened.streamIndex
        timeBase = opened.timeBase
        fallbackFrameDuration = Self.frameDuration(rate: opened.nominalFrameRate, timeBase: opened.timeBase)
    }

    /// What opening a file yields.
    private struct Opened {
        var resources: Resources
        var info: VideoInfo
        var streamIndex: Int32
        var timeBase: AVRational
        var nominalFrameRate: AVRational
    }

    /// Opens the file, picks its video stream and opens a decoder for it.
    private static func open(_ url: URL, options: VideoDecodingOptions, location: VideoFileLocation) throws(VideoError)
        -> Opened
    {
        let format = try location.perform(classifying: openingFailureKind) { () throws(FFmpegFailure) in
            try FormatContext(openingPath: url.path)
        }
        let index = try location.perform(classifying: { _ in .noVideoStream }) { () throws(FFmpegFailure) in
            try format.bestVideoStreamIndex()
        }
        guard let stream = format.stream(at: index) else {
            throw location.error(.noVideoStream, message: "av_find_best_stream returned stream \(index), which does not exist")
        }
        let info = VideoInfo(stream: stream, format: format)
        guard let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw location.error(
                .decoderMissing(codec: info.codecName),
                FFmpegFailure(function: "avcodec_find_decoder", code: cffmpeg_averror_decoder_not_found()))
        }
        let resources = try location.perform { () throws(FFmpegFailure) in
            Resources(
                format: format,
                codec: try CodecContext(decoder: decoder, stream: stream, threadCount: options.decoderThreadCount),
                packet: try Packet(), frame: try Frame(),
                converter: try FrameConverter(maximumDimension: options.maximumDimension))
        }
        return Opened(
            resources: resources, info: info, streamIndex: Int32(index), timeBase: stream.pointee.time_base,
            nominalFrameRate: stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate)
    }

    /// Releases the file and every FFmpeg resource; later calls to ``next()`` return nil.
    ///
    /// Safe to call more than once; without it, the resources are released with the decoder.
    public func close() { resources = nil }

    /// Decodes the next frame in display order.
    /// - Returns: the frame, or nil after the last frame (and after ``close()``).
    /// - Throws: ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` with FFmpeg's message
    ///   when the file is truncated or damaged (see "Damaged files" above), also when it holds no
    ///   decodable frame at all; ``VideoError/Kind-swift.enum/libraryCall(function:)`` when
    ///   FFmpeg fails for another reason (out of memory, a pixel format it cannot convert). The
    ///   decoder is closed after throwing.
    public func next() throws(VideoError) -> VideoFrame? {
        guard let resources else { return nil }
        return try location.log.recording { () throws(VideoError) in try decodeNext(resources) }
    }

    /// ``next()``'s work, with FFmpeg's log being recorded.
    private func decodeNext(_ resources: Resources) throws(VideoError) -> VideoFrame? {
        do throws(VideoError) {
            while true {
                let output = try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                    try resources.codec.receive(into: resources.frame)
                }
                switch output {
                case .frame:
                    defer { resources.frame.unreference() }
                    if let frame = try deliver(resources.frame.pointer, converter: resources.converter) { return frame }
                case .needsInput where !isDraining:
                    try feed(resources)
                case .needsInput, .endOfStream:
                    close()
                    guard framesDecoded > 0 else {
                        throw location.error(.corruptData(framesDecoded: 0), message: "the file holds no decodable frame")
                    }
                    return nil
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// Reads packets until one of the video stream's reaches the decoder, or starts draining the
    /// decoder at the end of the file.
    private func feed(_ resources: Resources) throws(VideoError) {
        while true {
            let hasPacket = try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                try resources.format.readPacket(into: resources.packet)
            }
            guard hasPacket else {
                isDraining = true
                try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in try resources.codec.send(nil) }
                return
            }
            defer { resources.packet.unreference() }
            let packet = resources.packet.pointer.pointee
            guard packet.stream_index == streamIndex else { continue }
            if packet.flags & cffmpeg_packet_flag_corrupt() != 0 {
                throw location.error(
                    .corruptData(framesDecoded: framesDecoded),
                    message: "the demuxer read an incomplete or damaged packet at byte \(packet.pos) (the file is truncated or corrupt)")
            }
            try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                try resources.codec.send(resources.packet)
            }
            return
        }
    }

    /// Turns a decoded frame into a ``VideoFrame``, or returns nil to drop it because its time is
    /// not after the previous frame's.
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>, converter: FrameConverter) throws(VideoError) -> VideoFrame? {
        if frame.pointee.flags & cffmpeg_frame_flag_corrupt() != 0 || frame.pointee.decode_error_flags != 0 {
            throw location.error(
                .corruptData(framesDecoded: framesDecoded),
                message: "the decoder reported errors in a frame (missing or damaged data)")
        }
        let timestamp = presentationTimestamp(of: frame)
        if let lastTimestamp, timestamp <= lastTimestamp {
            droppedFrameCount += 1
            return nil
        }
        let first = firstTimestamp ?? timestamp
        firstTimestamp = first
        lastTimestamp = timestamp
        let image = try location.perform { () throws(FFmpegFailure) in
            try converter.convert(frame, rotation: info.rotation)
        }
        framesDecoded += 1
        return VideoFrame(
            timestamp: seconds(timestamp - first), width: image.width, height: image.height, pixels: image.pixels)
    }

    /// The frame's presentation time in time-base units: FFmpeg's `best_effort_timestamp`, else
    /// one nominal frame after the previous frame (0 for the first).
    private func presentationTimestamp(of frame: UnsafePointer<AVFrame>) -> Int64 {
        let timestamp = frame.pointee.best_effort_timestamp
        if timestamp != cffmpeg_nopts_value() { return timestamp }
        return lastTimestamp.map { $0 + fallbackFrameDuration } ?? 0
    }

    /// A duration in time-base units as seconds: the product `ticks × num` is exact (below 2⁵³),
    /// so the result is `ticks × num / den` rounded once.
    private func seconds(_ ticks: Int64) -> Double {
        Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// The kind of a failure while reading or decoding data: out of memory is FFmpeg's problem,
    /// anything else means the file is damaged.
    private func dataFailureKind(_ failure: FFmpegFailure) -> VideoError.Kind {
        failure.code == cffmpeg_averror_enomem()
            ? .libraryCall(function: failure.function) : .corruptData(framesDecoded: framesDecoded)
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

    /// One frame at `rate` in units of `timeBase` (at least 1), for frames without timestamps.
    private static func frameDuration(rate: AVRational, timeBase: AVRational) -> Int64 {
        guard rate.num > 0, rate.den > 0, timeBase.num > 0, timeBase.den > 0 else { return 1 }
        return max(1, av_rescale_q(1, av_inv_q(rate), timeBase))
    }
}
