import Foundation

/// A class of parametric whole-body motion that ``SyntheticDataset`` can generate.
///
/// Each action is a periodic function from the motion's phase to a ``BodyPose``; the raw
/// value is its label (the folder name in the generated dataset).
public enum SyntheticAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both arms rise sideways above the head and come down again.
    case armRaise = "arm-raise"
    /// Knees and hips bend until the thighs are near horizontal, arms reaching forward.
    case squat
    /// Jumping jack: arms up and legs apart on a hop, then back.
    case jumpingJack = "jumping-jack"
    /// Alternate knee lifts with opposite arm swing.
    case walkingInPlace = "walking-in-place"
    /// Standing: slow sway and breathing, arms at rest.
    case idle
    /// Arms held out sideways drawing small circles.
    case armCircles = "arm-circles"
    /// The torso bends to one side and the other, the opposite arm rising over the head.
    case sideBend = "side-bend"
    /// Alternate straight punches forward from a guard.
    case punch

    /// The default six classes of `actionlab synth`.
    public static let defaultSet: [SyntheticAction] = [.armRaise, .squat, .jumpingJack, .walkingInPlace, .idle, .armCircles]

    /// Cycles per second at speed 1 (one cycle: raise and lower, one squat, left and right step, ...).
    public var cyclesPerSecond: Double {
        switch self {
        case .armRaise: return 0.5
        case .squat: return 0.45
        case .jumpingJack: return 1.0
        case .walkingInPlace: return 0.9
        case .idle: return 0.25
        case .armCircles: return 1.2
        case .sideBend: return 0.4
        case .punch: return 0.9
        }
    }

    /// The posture at a point of the motion.
    ///
    /// - Parameters:
    ///   - cycle: Position in the motion, in cycles (the fractional part is the phase).
    ///   - amplitude: Scale of the movement, about 1.
    func pose(cycle: Double, amplitude: Double) -> BodyPose {
        let angle = 2 * Double.pi * cycle
        // 0 at rest, 1 at the far point of the movement, smooth at both ends.
        let swing = (1 - cos(angle)) / 2
        var pose = BodyPose()
        switch self {
        case .armRaise:
            let abduction = 0.12 + amplitude * 2.6 * swing
            pose.rightArm = .init(abduction: abduction, flexion: 0.15 * swing, bend: 0.1)
            pose.leftArm = .init(abduction: abduction, flexion: 0.15 * swing, bend: 0.1)
        case .squat:
            let hip = amplitude * 1.35 * swing
            pose.rightLeg = .init(abduction: 0.08, flexion: hip, bend: 2 * hip)
            pose.leftLeg = .init(abduction: 0.08, flexion: hip, bend: 2 * hip)
            pose.torsoForwardLean = 0.45 * hip
            pose.rightArm = .init(abduction: 0.1, flexion: 1.3 * swing * amplitude, bend: 0.1)
            pose.leftArm = .init(abduction: 0.1, flexion: 1.3 * swing * amplitude, bend: 0.1)
        case .jumpingJack:
            let arms = 0.15 + amplitude * 2.6 * swing
            let legs = 0.03 + amplitude * 0.32 * swing
            pose.rightArm = .init(abduction: arms, flexion: 0, bend: 0.15)
            pose.leftArm = .init(abduction: arms, flexion: 0, bend: 0.15)
            pose.rightLeg = .init(abduction: legs, flexion: 0, bend: 0)
            pose.leftLeg = .init(abduction: legs, flexion: 0, bend: 0)
            pose.offset = Vector3(x: 0, y: 0.05 * amplitude * abs(sin(angle)), z: 0)
        case .walkingInPlace:
            // Marching: the knee rises to about hip height, the opposite arm swings forward.
            let right = amplitude * 1.4 * max(0, sin(angle))
            let left = amplitude * 1.4 * max(0, -sin(angle))
            pose.rightLeg = .init(abduction: 0.03, flexion: right, bend: 1.6 * right)
            pose.leftLeg = .init(abduction: 0.03, flexion: left, bend: 1.6 * left)
            pose.rightArm = .init(abduction: 0.1, flexion: -0.7 * amplitude * sin(angle), bend: 0.6)
            pose.leftArm = .init(abduction: 0.1, flexion: 0.7 * amplitude * sin(angle), bend: 0.6)
        case .idle:
            pose.offset = Vector3(x: 0.012 * amplitude * sin(angle), y: 0, z: 0)
            pose.torsoSideBend = 0.025 * amplitude * sin(angle + 0.7)
            let breath = 0.03 * amplitude * sin(3 * angle)
            pose.rightArm = .init(abduction: 0.12 + breath, flexion: 0.05, bend: 0.15)
            pose.leftArm = .init(abduction: 0.12 + breath, flexion: 0.05, bend: 0.15)
        case .armCircles:
            let radius = 0.35 * amplitude
            let abduction = Double.pi / 2 + radius * sin(angle)
            pose.rightArm = .init(abduction: abduction, flexion: radius * cos(angle), bend: 0.05)
            pose.leftArm = .init(abduction: abduction, flexion: radius * cos(angle), bend: 0.05)
        case .sideBend:
            let bend = 0.4 * amplitude * sin(angle)
            pose.torsoSideBend = bend
            // Bending to the left (+) lifts the right arm over the head, and the reverse.
            pose.rightArm = .init(abduction: 0.12 + 5 * max(0, bend), flexion: 0, bend: 0.3)
            pose.leftArm = .init(abduction: 0.12 + 5 * max(0, -bend), flexion: 0, bend: 0.3)
        case .punch:
            let right = amplitude * max(0, sin(angle))
            let left = amplitude * max(0, -sin(angle))
            // Guard: upper arm down and slightly forward, forearm up; punch: arm straight forward.
            pose.rightArm = .init(abduction: 0.25, flexion: 0.35 + 1.2 * right, bend: 2.3 * (1 - right))
            pose.leftArm = .init(abduction: 0.25, flexion: 0.35 + 1.2 * left, bend: 2.3 * (1 - left))
            pose.torsoSideBend = 0.06 * (right - left)
        }
        return pose
    }
}
