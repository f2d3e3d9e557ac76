/// The shape of one window of keypoints, `[T, C, J]`: frames, channels, joints.
///
/// An exported model's input `poses` has exactly this shape, Create ML's `[window, 3, 18]`
/// for Vision-18 body pose.
public struct KeypointWindowShape: Hashable, Sendable, CustomStringConvertible {
    /// Frames per window, `T` (the prediction window size).
    public var windowSize: Int
    /// Channels per joint, `C` (x, y, confidence for body pose).
    public var channelCount: Int
    /// Joints, `J`.
    public var jointCount: Int

    /// Creates a window shape.
    public init(windowSize: Int, channelCount: Int, jointCount: Int) {
        self.windowSize = windowSize
        self.channelCount = channelCount
        self.jointCount = jointCount
    }

    /// `[T, C, J]`.
    public var dimensions: [Int] { [windowSize, channelCount, jointCount] }

    public var description: String { "[\(windowSize), \(channelCount), \(jointCount)]" }
}
