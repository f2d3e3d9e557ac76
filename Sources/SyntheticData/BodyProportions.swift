import Randomness

/// Segment lengths of the synthetic body, in units of standing height (about 1).
///
/// The defaults follow the proportions of anthropometric tables for adults (Winter,
/// "Biomechanics and Motor Control of Human Movement", 4th ed., Fig. 4.1: segment lengths as
/// fractions of height H): upper arm 0.186 H, forearm 0.146 H, thigh 0.245 H, shank 0.246 H,
/// shoulder width 0.259 H, hip width 0.191 H, rounded.
public struct BodyProportions: Sendable, Hashable, Codable {
    /// Pelvis centre to neck.
    public var torso = 0.30
    /// Neck to nose; eyes and ears scale with it.
    public var head = 0.11
    /// Half the distance between the shoulders.
    public var shoulderHalfWidth = 0.13
    /// Half the distance between the hips.
    public var hipHalfWidth = 0.095
    /// Shoulder to elbow.
    public var upperArm = 0.186
    /// Elbow to wrist.
    public var forearm = 0.146
    /// Hip to knee.
    public var thigh = 0.245
    /// Knee to ankle.
    public var shank = 0.246

    /// The average adult.
    public init() {}

    /// An individual: every length scaled by its own factor, uniform in ±`variation` (widths
    /// in ±1.5 × `variation`).
    init(varying variation: Double, using generator: inout SeededGenerator) {
        func scale(_ value: Double, _ spread: Double) -> Double {
            value * (1 + Double(generator.nextUniform(from: Float(-spread), to: Float(spread))))
        }
        self.init()
        guard variation > 0 else { return }
        torso = scale(torso, variation)
        head = scale(head, variation)
        shoulderHalfWidth = scale(shoulderHalfWidth, 1.5 * variation)
        hipHalfWidth = scale(hipHalfWidth, 1.5 * variation)
        upperArm = scale(upperArm, variation)
        forearm = scale(forearm, variation)
        thigh = scale(thigh, variation)
        shank = scale(shank, variation)
    }
}
