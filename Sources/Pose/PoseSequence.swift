/// A keypoint array over time: Float32 `[T, C, J]` with a timestamp per frame.
///
/// `T` is the frame count, `C` the layout's channel count and `J` its joint count. Values are
/// stored flattened in row-major order, so the value of channel `c` of joint `j` at frame `t` is
/// `keypoints[(t * C + c) * J + j]`.
public struct PoseSequence: Sendable, Equatable {
    /// Flattened `[T, C, J]` values.
    public var keypoints: [Float]
    /// Time of each frame in seconds from the sequence's first frame; strictly increasing, `[T]`.
    public var timestamps: [Double]
    /// Number of channels, `C`.
    public var channelCount: Int
    /// Number of joints, `J`.
    public var jointCount: Int
    /// Nominal frame rate in frames per second.
    public var frameRate: Double

    /// Creates a sequence.
    /// - Precondition: `keypoints.count == timestamps.count * channelCount * jointCount`.
    public init(keypoints: [Float], timestamps: [Double], channelCount: Int, jointCount: Int, frameRate: Double) {
        precondition(keypoints.count == timestamps.count * channelCount * jointCount, "keypoints must be [T, C, J]")
        self.keypoints = keypoints
        self.timestamps = timestamps
        self.channelCount = channelCount
        self.jointCount = jointCount
        self.frameRate = frameRate
    }

    /// Number of frames, `T`.
    public var frameCount: Int { timestamps.count }

    /// Values per frame, `C * J`.
    public var valuesPerFrame: Int { channelCount * jointCount }

    /// Duration in seconds: frame count divided by frame rate.
    public var duration: Double { Double(frameCount) / frameRate }

    /// The value of channel `channel` of joint `joint` at frame `frame`.
    public subscript(frame: Int, channel: Int, joint: Int) -> Float {
        get { keypoints[(frame * channelCount + channel) * jointCount + joint] }
        set { keypoints[(frame * channelCount + channel) * jointCount + joint] = newValue }
    }

    /// The index of the first value that is NaN or infinite, as (frame, channel, joint), or nil.
    public func firstNonFiniteValue() -> (frame: Int, channel: Int, joint: Int)? {
        guard let index = keypoints.firstIndex(where: { !$0.isFinite }) else { return nil }
        let perFrame = valuesPerFrame
        return (index / perFrame, (index % perFrame) / jointCount, index % jointCount)
    }

    /// Timestamps `0, 1/frameRate, 2/frameRate, ...` for `frameCount` frames of a fixed-rate recording.
    public static func uniformTimestamps(frameCount: Int, frameRate: Double) -> [Double] {
        (0..<frameCount).map { Double($0) / frameRate }
    }
}
