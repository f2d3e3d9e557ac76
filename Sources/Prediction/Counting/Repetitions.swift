/// The repetitions of an action that ``PeriodicityCounter`` found in a stretch of pose frames.
public struct Repetitions: Sendable, Equatable {
    /// The number of repetitions; 0 when the motion shows no period.
    public var count: Int
    /// The time of one repetition, in seconds; nil when the motion shows no period (a still
    /// pose, motion too small or irregular, or fewer than 1.5 repetitions in the time range).
    public var period: Double?
    /// How periodic the motion is, in [0, 1]: the normalized square difference at the period
    /// (1 = every repetition alike); 0 when there is no period.
    public var clarity: Double
    /// How far the body moves: the root mean square of the motion signal (the joints' displacement
    /// along their main direction of motion) divided by the body's size (the root mean square
    /// distance of the joints from their mean); nil for layouts without a body (sensor channels)
    /// or when no joint was detected often enough.
    public var amplitude: Double?
    /// The instants of the repetitions' peaks (the far point of each movement along the pose's
    /// main direction of motion), in seconds on the pose sequence's timestamps, in time order.
    public var peakTimes: [Double]
    /// The frames read, as indices into the pose sequence.
    public var frames: Range<Int>

    public init(count: Int, period: Double?, clarity: Double, amplitude: Double?, peakTimes: [Double], frames: Range<Int>) {
        self.count = count
        self.period = period
        self.clarity = clarity
        self.amplitude = amplitude
        self.peakTimes = peakTimes
        self.frames = frames
    }
}
