/// How much the generated sequences of one class differ from each other.
///
/// Each sequence draws its own value from every range (uniformly), so two sequences of a class
/// differ in speed, size, viewpoint and noise, as recordings of different people would.
public struct SyntheticVariation: Sendable, Hashable, Codable {
    /// Playback speed factor of the motion (1 = ``SyntheticAction/cyclesPerSecond``).
    public var speed: ClosedRange<Double> = 0.75...1.33
    /// Scale of the movement (1 = the action's nominal range of motion).
    public var amplitude: ClosedRange<Double> = 0.75...1.1
    /// Relative spread of every body segment length around ``BodyProportions``' defaults (±).
    public var proportions = 0.08
    /// Camera yaw: rotation of the body about the vertical axis before the orthographic
    /// projection, in radians (0 = facing the camera).
    public var yaw: ClosedRange<Double> = -0.6...0.6
    /// Camera roll: in-plane rotation of the image, in radians.
    public var roll: ClosedRange<Double> = -0.12...0.12
    /// Standing height of the body in the image, as a fraction of the frame height.
    ///
    /// Position and size vary modestly by default (a centred subject filling about half the
    /// frame): the `tcn` model sees raw coordinates without normalizing them, and wider ranges
    /// need far more sequences to learn the invariance.
    public var scale: ClosedRange<Double> = 0.5...0.6
    /// Horizontal image position of the point between the feet, before drift.
    public var horizontalPosition: ClosedRange<Double> = 0.45...0.55
    /// Standard deviation of the Gaussian noise added to x and y, in normalized image units.
    public var noise: ClosedRange<Double> = 0.001...0.006
    /// Probability that a joint is not detected in a frame (set to (0, 0, 0)).
    public var missingJoints: ClosedRange<Double> = 0...0.04
    /// Typical confidence of a detected joint; each joint varies around it by ±0.1 and frame to
    /// frame by a Gaussian of standard deviation 0.04, clamped to [0.05, 1].
    public var confidence: ClosedRange<Double> = 0.55...0.95
    /// Beyond this absolute yaw (radians) the ear turned away from the camera is not detected.
    public var hiddenEarYaw = 0.6

    /// The default variation.
    public init() {}
}
