/// How raw window predictions become segments and counts: smoothing, hysteresis, refractory time.
public struct PostprocessingSettings: Sendable, Equatable {
    /// Predictions in the causal moving average of probabilities (``MovingAverageSmoother``); 1 = none.
    public var smoothingWindow: Int
    /// Predictions a label must hold to start or end a segment (``HysteresisFilter``); 1 = none.
    public var holdCount: Int
    /// Seconds after a counted segment of a label during which a new one of that label is not
    /// counted again (``EventCounter``).
    public var refractoryTime: Double

    /// A moving average over 3 predictions (1 s at Create ML's stride of 10 frames at 30 fps), a
    /// hold of 2 predictions and a refractory time of 1 s.
    public static let standard = PostprocessingSettings(smoothingWindow: 3, holdCount: 2, refractoryTime: 1)

    /// No smoothing and no hysteresis: the raw predictions' segments (refractory time 0).
    public static let raw = PostprocessingSettings(smoothingWindow: 1, holdCount: 1, refractoryTime: 0)

    public init(smoothingWindow: Int, holdCount: Int, refractoryTime: Double) {
        self.smoothingWindow = smoothingWindow
        self.holdCount = holdCount
        self.refractoryTime = refractoryTime
    }

    /// Checks every setting before any input is read.
    ///
    /// - Throws: ``PostprocessingError`` for a smoothing window or hold count below 1, or a
    ///   refractory time that is negative or not finite.
    public func check() throws {
        _ = try MovingAverageSmoother(window: smoothingWindow)
        _ = try HysteresisFilter(holdCount: holdCount)
        _ = try EventCounter(refractoryTime: refractoryTime)
    }
}
