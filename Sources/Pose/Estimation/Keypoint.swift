/// One joint of a detected person in Vision's convention.
///
/// `x` and `y` are normalized to the displayed frame's width and height, in [0, 1], with the origin
/// at the **lower left** (y grows upward), as `VNRecognizedPoint.location` reports them.
/// `confidence` is in [0, 1]. A joint that was not detected is ``undetected``, (0, 0, 0), the way
/// Vision pads a Create ML `poses` array.
public struct Keypoint: Sendable, Hashable {
    /// Horizontal position, normalized to the frame width, 0 at the left edge.
    public var x: Float
    /// Vertical position, normalized to the frame height, 0 at the bottom edge.
    public var y: Float
    /// How sure the estimator is of the joint, in [0, 1].
    public var confidence: Float

    /// Creates a keypoint.
    public init(x: Float, y: Float, confidence: Float) {
        self.x = x
        self.y = y
        self.confidence = confidence
    }

    /// A joint that was not detected: (0, 0, 0).
    public static let undetected = Keypoint(x: 0, y: 0, confidence: 0)

    /// Whether the joint was detected, that is, has a positive confidence.
    public var isDetected: Bool { confidence > 0 }
}
