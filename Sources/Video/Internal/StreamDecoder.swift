internal import CFFmpeg

/// The decoding loop shared by ``VideoDecoder`` (files) and ``LiveVideoSource`` (live streams):
/// from an open demuxer to upright RGB ``VideoFrame`` values in display order.
///
/// It picks the demuxer's main video stream, opens a decoder and a converter for it, and then
/// reads packets, decodes them and converts frames, with the timestamp rules of
/// ``VideoDecoder`` (seconds from the first delivered frame; a frame not after the previous one
/// is dropped). What differs between files and live streams is said by ``DamagePolicy`` and by
/// ``Step/noPacketYet``, which only a non-blocking demuxer (a capture device) produces.
///
/// It owns every FFmpeg object it uses and is used from one thread at a time. Callers record
/// FFmpeg's log around each call (``FFmpegLogRecorder/recording(_:)``).
final class StreamDecoder {
    /// What to do with data FFmpeg reports as damaged.
    enum DamagePolicy {
        /// Throw ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` and close: a file
        /// is then failed as a whole (see ``VideoDecoder``).
        case fail
        /// Skip the damaged packet or frame, count it in ``damagedCount`` and go on: a live
        /// stream loses packets and is joined between key frames.
        case skip
    }

    /// What ``next()`` produced.
    enum Step {
        /// The next frame in display order.
        case frame(VideoFrame)
        /// Every frame has been delivered.
        case endOfStream
        /// The demuxer has no packet yet (`AVERROR(EAGAIN)` from a non-blocking demuxer); call
        /// again later.
        case noPacketYet
    }

    /// The FFmpeg objects of an open decoder, each owning one C resource.
    private struct Resources {
        var format: FormatContext
        var codec: CodecContext
        var packet: Packet
        var frame: Frame
        var converter: FrameConverter
    }

    /// What the container and codec parameters say about the video stream.
    let info: VideoInfo
    /// The number of frames delivered so far.
    private(set) var framesDecoded = 0
    /// The number of decoded frames dropped because their timestamp was not after the previous
    /// delivered frame's.
    private(set) var droppedFrameCount = 0
    /// The number of damaged packets and frames skipped (``DamagePolicy/skip`` only).
    private(set) var damagedCount = 0

    /// The FFmpeg objects; nil once closed.
    private var resources: Resources?
    private let location: VideoFileLocation
    private let damagePolicy: DamagePolicy
    /// Called after each packet of the video stream is read (a live source's stall clock).
    private let packetDidArrive: () -> Void
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The step, in time-base units, assumed for a frame without any timestamp.
    private let fallbackFrameDuration: Int64
    /// Whether the end of the input was reached and the decoder is being drained.
    private var isDraining = false
    /// The first delivered frame's presentation time, in time-base units.
    private var firstTimestamp: Int64?
    /// The last delivered frame's presentation time, in time-base units.
    private var lastTimestamp: Int64?

    /// Picks `format`'s main video stream and opens a decoder and a converter for it.
    /// - Throws: ``VideoError``: ``VideoError/Kind-swift.enum/noVideoStream`` without a video
    ///   stream, ``VideoError/Kind-swift.enum/decoderMissing(codec:)`` when this FFmpeg cannot
    ///   decode it, ``VideoError/Kind-swift.enum/libraryCall(function:)`` when FFmpeg fails
    ///   otherwise (out of memory).
    init(
        format: FormatContext, options: VideoDecodingOptions, location: VideoFileLocation, damagePolicy: DamagePolicy,
        packetDidArrive: @escaping () -> Void = {}
    ) throws(VideoError) {
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
        resources = try location.perform { () throws(FFmpegFailure) in
            Resources(
                format: format,
                codec: try CodecContext(decoder: decoder, stream: stream, threadCount: options.decoderThreadCount),
                packet: try Packet(), frame: try Frame(),
                converter: try FrameConverter(maximumDimension: options.maximumDimension))
        }
        self.info = info
        self.location = location
        self.damagePolicy = damagePolicy
        self.packetDidArrive = packetDidArrive
        streamIndex = Int32(index)
        timeBase = stream.pointee.time_base
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        fallbackFrameDuration = Self.frameDuration(rate: rate, timeBase: stream.pointee.time_base)
    }

    /// Releases the input and every FFmpeg resource; later calls to ``next()`` end the stream.
    func close() { resources = nil }

    /// Decodes the next frame in display order.
    /// - Throws: ``VideoError/Kind-swift.enum/corruptData(framesDecoded:)`` for a read error,
    ///   damaged data under ``DamagePolicy/fail``, or an input without any decodable frame;
    ///   ``VideoError/Kind-swift.enum/libraryCall(function:)`` when FFmpeg fails otherwise (out
    ///   of memory, a pixel format it cannot convert). The decoder is closed after throwing.
    func next() throws(VideoError) -> Step {
        guard let resources else { return .endOfStream }
        do throws(VideoError) {
            while true {
                let output: CodecContext.Output
                do throws(VideoError) {
                    output = try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                        try resources.codec.receive(into: resources.frame)
                    }
                } catch where isSkippable(error) {
                    damagedCount += 1
                    continue
                }
                switch output {
                case .frame:
                    defer { resources.frame.unreference() }
                    if let frame = try deliver(resources.frame.pointer, converter: resources.converter) { return .frame(frame) }
                case .needsInput where !isDraining:
                    guard try feed(resources) else { return .noPacketYet }
                case .needsInput, .endOfStream:
                    close()
                    guard framesDecoded > 0 else {
                        throw location.error(.corruptData(framesDecoded: 0), message: "the input holds no decodable frame")
                    }
                    return .endOfStream
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// Reads packets until one of the video stream's reaches the decoder, or starts draining the
    /// decoder at the end of the input.
    /// - Returns: false when a non-blocking demuxer has no packet yet.
    private func feed(_ resources: Resources) throws(VideoError) -> Bool {
        while true {
            let read = try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                try resources.format.readPacket(into: resources.packet)
            }
            switch read {
            case .tryAgain:
                return false
            case .endOfFile:
                isDraining = true
                try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in try resources.codec.send(nil) }
                return true
            case .packet:
                break
            }
            defer { resources.packet.unreference() }
            let packet = resources.packet.pointer.pointee
            guard packet.stream_index == streamIndex else { continue }
            packetDidArrive()
            if packet.flags & cffmpeg_packet_flag_corrupt() != 0 {
                let error = location.error(
                    .corruptData(framesDecoded: framesDecoded),
                    message:
                        "the demuxer read an incomplete or damaged packet at byte \(packet.pos) (the input is truncated or corrupt)")
                guard isSkippable(error) else { throw error }
                damagedCount += 1
                continue
            }
            do throws(VideoError) {
                try location.perform(classifying: dataFailureKind) { () throws(FFmpegFailure) in
                    try resources.codec.send(resources.packet)
                }
            } catch where isSkippable(error) {
                damagedCount += 1
                continue
            }
            return true
        }
    }

    /// Turns a decoded frame into a ``VideoFrame``, or returns nil to drop it (its time is not
    /// after the previous frame's, or it is damaged and the policy skips damage).
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>, converter: FrameConverter) throws(VideoError) -> VideoFrame? {
        if frame.pointee.flags & cffmpeg_frame_flag_corrupt() != 0 || frame.pointee.decode_error_flags != 0 {
            let error = location.error(
                .corruptData(framesDecoded: framesDecoded),
                message: "the decoder reported errors in a frame (missing or damaged data)")
            guard isSkippable(error) else { throw error }
            damagedCount += 1
            return nil
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

    /// Whether `error` is damage that the policy skips (out of memory and the like never are).
    private func isSkippable(_ error: VideoError) -> Bool {
        guard damagePolicy == .skip, case .corruptData = error.kind else { return false }
        return true
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
    /// anything else means the input is damaged.
    private func dataFailureKind(_ failure: FFmpegFailure) -> VideoError.Kind {
        failure.code == cffmpeg_averror_enomem()
            ? .libraryCall(function: failure.function) : .corruptData(framesDecoded: framesDecoded)
    }

    /// One frame at `rate` in units of `timeBase` (at least 1), for frames without timestamps.
    private static func frameDuration(rate: AVRational, timeBase: AVRational) -> Int64 {
        guard rate.num > 0, rate.den > 0, timeBase.num > 0, timeBase.den > 0 else { return 1 }
        return max(1, av_rescale_q(1, av_inv_q(rate), timeBase))
    }
}
