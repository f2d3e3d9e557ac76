internal import CFFmpeg

extension VideoInfo {
    /// Reads what the container and codec parameters say about `stream`.
    init(stream: UnsafePointer<AVStream>, format: FormatContext) {
        let parameters = stream.pointee.codecpar.pointee
        let streamDuration = stream.pointee.duration
        self.init(
            duration: streamDuration != cffmpeg_nopts_value() && streamDuration > 0
                ? Double(streamDuration) * av_q2d(stream.pointee.time_base) : format.duration,
            nominalFrameRate: Self.ratio(stream.pointee.avg_frame_rate) ?? Self.ratio(stream.pointee.r_frame_rate),
            storedWidth: Int(parameters.width),
            storedHeight: Int(parameters.height),
            rotation: Self.rotation(of: stream),
            codecName: avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown",
            claimedFrameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            pixelFormatName: av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) },
            pixelAspectRatio: Self.ratio(parameters.sample_aspect_ratio) ?? Self.ratio(stream.pointee.sample_aspect_ratio) ?? 1)
    }

    /// A positive ratio, or nil when FFmpeg left it unset (0/1 or 0/0).
    private static func ratio(_ ratio: AVRational) -> Double? {
        guard ratio.num > 0, ratio.den > 0 else { return nil }
        return av_q2d(ratio)
    }

    /// The counterclockwise quarter-turn rotation in the stream's display matrix, in degrees
    /// (0, 90, 180 or 270); 0 without a matrix.
    private static func rotation(of stream: UnsafePointer<AVStream>) -> Int {
        var size = 0
        let matrixCount = Int(cffmpeg_display_matrix_count())
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
            size >= matrixCount * MemoryLayout<Int32>.size
        else { return 0 }
        // Side data is allocated by av_malloc, so suitably aligned for int32_t.
        let degrees = data.withMemoryRebound(to: Int32.self, capacity: matrixCount) { av_display_rotation_get($0) }
        guard degrees.isFinite else { return 0 }
        let quarterTurns = Int((degrees / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }
}
