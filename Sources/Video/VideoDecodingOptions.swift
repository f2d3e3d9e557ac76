/// How ``VideoDecoder`` delivers frames.
public struct VideoDecodingOptions: Equatable, Sendable {
    /// The largest width or height in pixels of delivered frames; nil delivers full size.
    ///
    /// Larger frames are downscaled (by libswscale, averaging areas: `SWS_AREA`) so that their
    /// longer displayed side is this many pixels, keeping the aspect ratio; smaller frames are
    /// never enlarged. Pose estimators work on a few hundred pixels, so this saves memory and the
    /// estimator's own resizing.
    public var maximumDimension: Int?
    /// The number of decoding threads FFmpeg may use; 0 lets FFmpeg choose (one per core).
    ///
    /// Use 1 when other work (pose estimation) runs in parallel and the cores are few.
    public var decoderThreadCount: Int

    /// Creates options.
    /// - Parameters:
    ///   - maximumDimension: the longest side in pixels of delivered frames (at least 1), or nil
    ///     for full size.
    ///   - decoderThreadCount: FFmpeg's decoding threads, 0 for automatic.
    public init(maximumDimension: Int? = nil, decoderThreadCount: Int = 0) {
        precondition(maximumDimension.map { $0 >= 1 } ?? true, "maximumDimension must be at least 1")
        precondition(decoderThreadCount >= 0, "decoderThreadCount must not be negative")
        self.maximumDimension = maximumDimension
        self.decoderThreadCount = decoderThreadCount
    }
}
