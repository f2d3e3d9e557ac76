internal import CFFmpeg

/// Converts decoded frames to upright RGB24 ``VideoFrame`` pixels: the owner of the libswscale
/// context and of the intermediate RGB frame.
///
/// libswscale converts the pixel format (honouring the frame's YUV matrix and full or limited
/// range, as FFmpeg's `scale` filter does) and downscales (averaging areas, `SWS_AREA`; at full
/// size the flags only pick FFmpeg's default, bicubic, which the unscaled conversion does not
/// use); the quarter-turn rotation is then done
/// by copying pixels, which is exact. The scaler is rebuilt only when the input changes (size,
/// pixel format, colour matrix or range), which for most files is never after the first frame.
final class FrameConverter {
    /// What the current scaler was built for.
    private struct Configuration: Equatable {
        var sourceWidth: Int32
        var sourceHeight: Int32
        var sourceFormat: AVPixelFormat
        var colorSpace: AVColorSpace
        var isFullRange: Bool
        var targetWidth: Int32
        var targetHeight: Int32
    }

    private let maximumDimension: Int?
    private let rgb: Frame
    private var scaler: OpaquePointer?
    private var configuration: Configuration?

    /// Creates a converter.
    /// - Parameter maximumDimension: the longest side in pixels of converted frames, or nil for
    ///   full size (see ``VideoDecodingOptions/maximumDimension``).
    init(maximumDimension: Int?) throws(FFmpegFailure) {
        self.maximumDimension = maximumDimension
        rgb = try Frame()
    }

    deinit { sws_freeContext(scaler) }

    /// Converts `frame` to RGB24, downscaled and turned counterclockwise by `rotation` degrees.
    /// - Returns: the displayed width and height in pixels and `width * height * 3` bytes.
    /// - Throws: ``FFmpegFailure`` when libswscale cannot convert the pixel format or an
    ///   allocation fails.
    func convert(_ frame: UnsafePointer<AVFrame>, rotation: Int) throws(FFmpegFailure)
        -> (width: Int, height: Int, pixels: [UInt8])
    {
        try configure(for: frame)
        try FFmpegCall.check(sws_scale_frame(scaler, rgb.pointer, frame), "sws_scale_frame")
        let output = rgb.pointer.pointee
        let base = try FFmpegCall.nonNull(output.data.0, "av_frame_get_buffer")
        let source = RGBImage(
            base: UnsafePointer(base), rowStride: Int(output.linesize.0), width: Int(output.width),
            height: Int(output.height))
        return source.rotatedCounterclockwise(by: rotation)
    }

    /// Makes the scaler and the RGB frame fit `frame`, rebuilding them when its format changed.
    private func configure(for frame: UnsafePointer<AVFrame>) throws(FFmpegFailure) {
        let (format, impliesFullRange) = Self.canonicalFormat(AVPixelFormat(frame.pointee.format))
        let width = frame.pointee.width
        let height = frame.pointee.height
        let target = Self.targetSize(width: Int(width), height: Int(height), maximumDimension: maximumDimension)
        let wanted = Configuration(
            sourceWidth: width, sourceHeight: height, sourceFormat: format, colorSpace: frame.pointee.colorspace,
            isFullRange: impliesFullRange || frame.pointee.color_range == AVCOL_RANGE_JPEG,
            targetWidth: Int32(target.width), targetHeight: Int32(target.height))
        guard wanted != configuration else { return }

        sws_freeContext(scaler)
        scaler = nil
        configuration = nil
        let context = try FFmpegCall.nonNull(
            sws_getContext(
                width, height, format, wanted.targetWidth, wanted.targetHeight, AV_PIX_FMT_RGB24,
                wanted.targetWidth < width ? SWS_AREA : SWS_BICUBIC, nil, nil, nil),
            "sws_getContext", code: cffmpeg_averror_einval())
        scaler = context
        try Self.setInputColorimetry(context, wanted)

        rgb.unreference()
        rgb.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        rgb.pointer.pointee.width = wanted.targetWidth
        rgb.pointer.pointee.height = wanted.targetHeight
        try FFmpegCall.check(av_frame_get_buffer(rgb.pointer, 0), "av_frame_get_buffer")
        configuration = wanted
    }

    /// Tells the scaler which YUV matrix and range the input uses (`sws_setColorspaceDetails`),
    /// keeping its output settings; RGB inputs need nothing.
    private static func setInputColorimetry(_ context: OpaquePointer, _ configuration: Configuration) throws(FFmpegFailure) {
        if let descriptor = av_pix_fmt_desc_get(configuration.sourceFormat),
            descriptor.pointee.flags & cffmpeg_pix_fmt_flag_rgb() != 0
        {
            return
        }
        var inverseTable: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0
        var table: UnsafeMutablePointer<Int32>?
        var targetRange: Int32 = 0
        var brightness: Int32 = 0
        var contrast: Int32 = 0
        var saturation: Int32 = 0
        try FFmpegCall.check(
            sws_getColorspaceDetails(
                context, &inverseTable, &sourceRange, &table, &targetRange, &brightness, &contrast, &saturation),
            "sws_getColorspaceDetails")
        // sws_getCoefficients maps unspecified or unknown matrices to BT.601, FFmpeg's default.
        try FFmpegCall.check(
            sws_setColorspaceDetails(
                context, sws_getCoefficients(Int32(configuration.colorSpace.rawValue)),
                configuration.isFullRange ? 1 : 0, table, targetRange, brightness, contrast, saturation),
            "sws_setColorspaceDetails")
    }

    /// Replaces the deprecated full-range `yuvj*` formats with their `yuv*` equivalents, which
    /// libswscale wants, and says whether the input was full range (as FFmpeg's `scale` filter
    /// does).
    private static func canonicalFormat(_ format: AVPixelFormat) -> (AVPixelFormat, isFullRange: Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: (AV_PIX_FMT_YUV440P, true)
        case AV_PIX_FMT_YUVJ411P: (AV_PIX_FMT_YUV411P, true)
        default: (format, false)
        }
    }

    /// The size in pixels after downscaling so that the longer side is at most
    /// `maximumDimension`, keeping the aspect ratio (each side at least 1 pixel).
    static func targetSize(width: Int, height: Int, maximumDimension: Int?) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard let maximumDimension, longer > maximumDimension else { return (width, height) }
        let scale = Double(maximumDimension) / Double(longer)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
