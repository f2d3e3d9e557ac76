/// What a video or image file's headers say about its video stream, read when it is opened.
///
/// These are the container's and codec's claims, useful for reports and checks; the frames
/// actually delivered by ``VideoDecoder/next()`` are the truth (``VideoDecoder/framesDecoded``
/// counts them, and their timestamps are exact).
public struct VideoInfo: Equatable, Sendable {
    /// The duration in seconds, from the stream (or else the container); nil when unknown.
    public var duration: Double?
    /// The nominal frame rate in frames per second (the stream's average rate, else its base
    /// rate); nil when the file states none. Variable-frame-rate files report an average.
    public var nominalFrameRate: Double?
    /// The width in pixels of frames as stored in the file, before rotation.
    public var storedWidth: Int
    /// The height in pixels of frames as stored in the file, before rotation.
    public var storedHeight: Int
    /// The rotation in degrees (0, 90, 180 or 270) by which stored frames are turned
    /// counterclockwise to be displayed upright.
    ///
    /// Read from the stream's display matrix (`AV_PKT_DATA_DISPLAYMATRIX`) with
    /// `av_display_rotation_get`, rounded to a quarter turn and normalized to 0 ..< 360; this is
    /// the value `ffprobe` prints as `rotation`. A clip tagged `-metadata:s:v:0 rotate=90` by
    /// FFmpeg 5.1 reports 90. Mirroring in the matrix is ignored.
    public var rotation: Int
    /// The codec's short name, such as `h264`, `mjpeg` or `msmpeg4v3`.
    public var codecName: String
    /// The number of frames the container's header claims; nil when it states none.
    ///
    /// Not to be trusted: edit lists, truncation and duplicated timestamps all make it differ from
    /// what is decoded.
    public var claimedFrameCount: Int?
    /// The stored pixel format's name, such as `yuv420p`; nil when the stream states none.
    public var pixelFormatName: String?
    /// The displayed width of one stored pixel relative to its height (the stream's sample
    /// aspect ratio); 1 for square pixels or when the file states none.
    ///
    /// Frames are delivered with stored pixels as they are, not stretched to square pixels (as
    /// the ffmpeg tool does too), so anamorphic video (DV's 720x480 at 8:9, for example) looks
    /// slightly squeezed to a pose estimator; x and y stay normalized to the delivered frame.
    public var pixelAspectRatio: Double

    /// Creates a description; ``VideoDecoder`` fills one in when it opens a file.
    public init(
        duration: Double?, nominalFrameRate: Double?, storedWidth: Int, storedHeight: Int, rotation: Int,
        codecName: String, claimedFrameCount: Int?, pixelFormatName: String?, pixelAspectRatio: Double = 1
    ) {
        self.duration = duration
        self.nominalFrameRate = nominalFrameRate
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.rotation = rotation
        self.codecName = codecName
        self.claimedFrameCount = claimedFrameCount
        self.pixelFormatName = pixelFormatName
        self.pixelAspectRatio = pixelAspectRatio
    }

    /// Whether a quarter-turn rotation swaps width and height for display.
    public var swapsDimensions: Bool { rotation == 90 || rotation == 270 }
    /// The width in pixels of frames as displayed, after ``rotation``.
    public var displayWidth: Int { swapsDimensions ? storedHeight : storedWidth }
    /// The height in pixels of frames as displayed, after ``rotation``.
    public var displayHeight: Int { swapsDimensions ? storedWidth : storedHeight }
}
