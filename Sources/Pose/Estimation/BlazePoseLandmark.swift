/// One of the 33 landmarks MediaPipe's pose landmarker (BlazePose) reports for a person, as the
/// library reports it.
///
/// `x` and `y` are normalized to the input image's width and height with the origin at the
/// **top left** (y grows downward); they fall outside [0, 1] for body parts the model places
/// beyond the image edges. `z` is depth relative to the hips, at roughly the scale of `x`.
/// `visibility` is the probability that the landmark is in the image and not occluded,
/// `presence` the probability that it is in the image; nil when the model does not report them.
/// (MediaPipe `NormalizedLandmark`, `mediapipe/tasks/python/components/containers/landmark.py`.)
public struct BlazePoseLandmark: Sendable, Hashable {
    /// Horizontal position, normalized to the image width, 0 at the left edge.
    public var x: Float
    /// Vertical position, normalized to the image height, 0 at the top edge.
    public var y: Float
    /// Depth, smaller is closer to the camera, at roughly the scale of `x`.
    public var z: Float
    /// Probability in [0, 1] that the landmark is visible (in the image and not occluded).
    public var visibility: Float?
    /// Probability in [0, 1] that the landmark is in the image.
    public var presence: Float?

    /// Creates a landmark.
    public init(x: Float, y: Float, z: Float = 0, visibility: Float?, presence: Float?) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}
