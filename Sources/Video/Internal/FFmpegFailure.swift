internal import CFFmpeg

/// A failed FFmpeg call: the function, its negative return code and FFmpeg's text for that code.
///
/// This is the internal currency of the C layer. ``VideoDecoder`` turns it into a public
/// ``VideoError`` that adds the file path and a ``VideoError/Kind-swift.enum`` a caller can
/// switch over.
struct FFmpegFailure: Error, Sendable {
    /// The C function that failed, such as `avformat_open_input`.
    var function: String
    /// FFmpeg's return code (an `AVERROR` value, always negative).
    var code: Int32

    /// FFmpeg's own explanation of ``code`` (`av_strerror`), such as
    /// `Invalid data found when processing input`.
    var message: String { FFmpegFailure.message(for: code) }

    /// Whether the code is `AVERROR_EOF`.
    var isEndOfFile: Bool { code == cffmpeg_averror_eof() }
    /// Whether the code is `AVERROR(EAGAIN)`.
    var isTryAgain: Bool { code == cffmpeg_averror_eagain() }

    /// FFmpeg's text for an error code, or a neutral description if FFmpeg has none.
    static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(cffmpeg_error_max_string_size()))
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The checks every FFmpeg call in this module goes through.
///
/// FFmpeg's conventions: functions returning `int` fail with a negative `AVERROR` code;
/// allocators (`av_frame_alloc`, `avcodec_alloc_context3`, `sws_getCachedContext`) fail by
/// returning `NULL`, which this module reports as `AVERROR(ENOMEM)` (FFmpeg's own convention for
/// a failed allocation) unless the caller says otherwise.
enum FFmpegCall {
    /// Returns `code` when it is non-negative; throws it as an ``FFmpegFailure`` otherwise.
    @discardableResult
    static func check(_ code: Int32, _ function: String) throws(FFmpegFailure) -> Int32 {
        guard code >= 0 else { throw FFmpegFailure(function: function, code: code) }
        return code
    }

    /// Returns `pointer` unless it is nil, in which case `function` is reported as having failed
    /// with `code` (by default `AVERROR(ENOMEM)`).
    static func nonNull<Pointer>(
        _ pointer: Pointer?, _ function: String, code: Int32 = cffmpeg_averror_enomem()
    ) throws(FFmpegFailure) -> Pointer {
        guard let pointer else { throw FFmpegFailure(function: function, code: code) }
        return pointer
    }
}
