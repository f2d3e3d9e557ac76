internal import CFFmpeg
import Foundation

/// The reading thread's work for ``LiveVideoSource``: opens the stream, then decodes frames as
/// they arrive and queues them, never waiting for the consumer (the queue drops its oldest
/// frame instead).
///
/// Decoding is ``StreamDecoder``'s, as for files, with damage skipped instead of failing the
/// stream. Everything that can block — connecting, waiting for a pipe's writer, reading — gives
/// up when ``IOInterrupt`` says so: on ``LiveVideoSource/close()``, or when no packet of the
/// video stream has arrived within the timeout. Only `Sendable` values leave this thread.
struct LiveStreamReader {
    /// The stream, as given by the caller.
    let url: String
    let options: LiveSourceOptions
    let interrupt: IOInterrupt
    let queue: FrameQueue<LiveFrame>

    /// Seconds between two reads of a capture device that had no frame yet (`AVERROR(EAGAIN)`).
    static let devicePollInterval = 0.005

    /// Registers libavdevice's inputs (`video4linux2`, `lavfi`, …) with libavformat, once per
    /// process, loading libavdevice then (`cffmpeg_register_devices`); nil, or why it could not
    /// be loaded, which the error for an unknown input format then gives.
    private static let deviceRegistrationProblem: String? = cffmpeg_register_devices().map { String(cString: $0) }

    /// Opens the stream and reads it to its end, an error, a stall or cancellation.
    /// - Returns: the error that ended reading, or nil for the end of the stream or cancellation.
    func run() -> VideoError? {
        let location = VideoFileLocation(path: url, log: FFmpegLogRecorder())
        var isOpen = false
        do throws(VideoError) {
            let decoder = try location.log.recording { () throws(VideoError) in try open(location) }
            isOpen = true
            queue.publish(.success(decoder.info))
            interrupt.restart(timeout: options.stallTimeout)
            var index = 0
            while true {
                let step = try location.log.recording { () throws(VideoError) in try decoder.next() }
                queue.recordSkipped(decoder.damagedCount + decoder.droppedFrameCount)
                switch step {
                case let .frame(frame):
                    // After a stall the demuxer reports the end of the input and the decoder
                    // drains the frames it held back; they are stale, so they are not queued.
                    if interrupt.reason != nil { return ending(nil, location, isOpen: true) }
                    guard queue.push(LiveFrame(frame: frame, index: index, receivedAt: .now)) else { return nil }
                    index += 1
                case .noPacketYet:
                    if interrupt.shouldInterrupt() { return ending(nil, location, isOpen: true) }
                    Thread.sleep(forTimeInterval: Self.devicePollInterval)
                case .endOfStream:
                    // An interrupted read can look like the end of the input to the demuxer.
                    return ending(nil, location, isOpen: true)
                }
            }
        } catch {
            return ending(error, location, isOpen: isOpen)
        }
    }

    /// What ended reading, given what the decoder reported (`error`, or nil for the end of the
    /// input): nil after cancellation, the stall error after a timeout, else `error` as it is.
    private func ending(_ error: VideoError?, _ location: VideoFileLocation, isOpen: Bool) -> VideoError? {
        guard let reason = interrupt.reason else { return error }
        guard case let .timedOut(seconds) = reason else { return nil }
        let message =
            isOpen
            ? "no video data arrived for \(seconds) s (the sender stopped, or the network or device stalled)"
            : "the stream did not open within \(seconds) s (nothing was sent, or too little to recognize the stream)"
        return location.error(.streamStalled(seconds: seconds), message: message)
    }

    /// Opens the input (a named pipe through ``NamedPipeInput``, anything else as FFmpeg opens
    /// it) and a decoder for its video stream.
    private func open(_ location: VideoFileLocation) throws(VideoError) -> StreamDecoder {
        if let (name, reason) = options.invalidOption {
            throw location.error(.invalidOption(name: name), message: "LiveSourceOptions.\(name) \(reason)")
        }
        var format: UnsafePointer<AVInputFormat>?
        if let name = options.inputFormat {
            let devices = Self.deviceRegistrationProblem
            guard let found = av_find_input_format(name) else {
                throw VideoError(
                    kind: .invalidOption(name: "inputFormat"), filePath: url, ffmpegFunction: "av_find_input_format",
                    ffmpegMessage: "FFmpeg has no input format named '\(name)' (`ffmpeg -demuxers` lists them)"
                        + (devices.map { "; its capture devices are missing: \($0)" } ?? ""))
            }
            format = found
        }
        let path = url.hasPrefix("file:") ? String(url.dropFirst("file:".count)) : url
        var pipe: NamedPipeInput?
        if NamedPipeInput.isNamedPipe(path) {
            let opened = try location.perform(classifying: Self.openingFailureKind) { () throws(FFmpegFailure) in
                try NamedPipeInput(path: path)
            }
            guard opened.waitForWriter(interrupt: interrupt) else {
                throw location.error(.streamStalled(seconds: options.openingTimeout), message: "no writer opened the pipe")
            }
            pipe = opened
        }
        let dictionary = try location.perform { () throws(FFmpegFailure) in try OptionDictionary(options.ffmpegOptions) }
        let context = try location.perform(classifying: Self.openingFailureKind) { () throws(FFmpegFailure) in
            try FormatContext(
                openingStream: pipe?.url ?? url, format: format, options: dictionary, interrupt: interrupt, pipe: pipe)
        }
        if let unused = dictionary.keys.first {
            throw location.error(
                .invalidOption(name: unused),
                message: "no part of FFmpeg opening this input (demuxer, protocol, format context) has an option '\(unused)'")
        }
        let stallTimeout = options.stallTimeout
        return try StreamDecoder(
            format: context, options: options.decoding, location: location, damagePolicy: .skip,
            packetDidArrive: { [interrupt] in interrupt.restart(timeout: stallTimeout) })
    }

    /// The kind of a failure to open a stream.
    private static func openingFailureKind(_ failure: FFmpegFailure) -> VideoError.Kind {
        switch failure.code {
        case cffmpeg_averror_enoent(): .fileNotFound
        case cffmpeg_averror_invaliddata(): .unrecognizedFormat
        case cffmpeg_averror_enomem(): .libraryCall(function: failure.function)
        default: failure.function == "avformat_find_stream_info" ? .unrecognizedFormat : .streamUnavailable
        }
    }
}
