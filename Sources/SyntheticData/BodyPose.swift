import Foundation

/// A posture of the synthetic body as joint angles, and its 3-D joint positions.
///
/// Angles are in radians. A limb's direction is set by two angles applied to a limb hanging
/// straight down: `flexion` swings it forward (toward the camera, about the x axis), then
/// `abduction` swings it out to its side (about the z axis):
/// `direction = (side · sin(abduction) · cos(flexion), −cos(abduction) · cos(flexion), sin(flexion))`,
/// with `side` −1 for the right limb (the camera's left) and +1 for the left one. Arms are set in
/// the torso's frame, so they follow a bending torso; legs in the pelvis's frame.
struct BodyPose: Sendable, Hashable {
    /// The direction and bend of one arm or leg.
    struct Limb: Sendable, Hashable {
        /// Swing out to the side; 0 hanging down, π/2 horizontal, π straight up.
        var abduction = 0.0
        /// Swing forward; 0 hanging down, π/2 pointing at the camera.
        var flexion = 0.0
        /// Elbow flexion (arms: the forearm turns forward and up) or knee flexion (legs: the
        /// shank turns backward), 0 straight.
        var bend = 0.0
    }

    var rightArm = Limb(abduction: 0.12)
    var leftArm = Limb(abduction: 0.12)
    var rightLeg = Limb(abduction: 0.03)
    var leftLeg = Limb(abduction: 0.03)
    /// Sideways bend of the torso about the pelvis; positive toward the body's left (+x).
    var torsoSideBend = 0.0
    /// Forward lean of the torso about the pelvis; positive toward the camera.
    var torsoForwardLean = 0.0
    /// Extra offset of the whole body: a hop (y), a sway (x).
    var offset = Vector3.zero

    /// The 18 joints in `vision18` order (nose, neck, right shoulder, ..., left ear), with the
    /// lower ankle on the ground (y = 0) before ``offset`` is added.
    func joints(_ body: BodyProportions) -> [Vector3] {
        // Legs hang from the pelvis; its height puts the lower ankle on the ground.
        let rightThigh = Self.direction(rightLeg.abduction, rightLeg.flexion, side: -1)
        let rightShank = Self.direction(rightLeg.abduction, rightLeg.flexion - rightLeg.bend, side: -1)
        let leftThigh = Self.direction(leftLeg.abduction, leftLeg.flexion, side: 1)
        let leftShank = Self.direction(leftLeg.abduction, leftLeg.flexion - leftLeg.bend, side: 1)
        let rightDrop = -(body.thigh * rightThigh.y + body.shank * rightShank.y)
        let leftDrop = -(body.thigh * leftThigh.y + body.shank * leftShank.y)
        let pelvis = Vector3(x: 0, y: max(rightDrop, leftDrop), z: 0) + offset

        let rightHip = pelvis + Vector3(x: -body.hipHalfWidth, y: 0, z: 0)
        let leftHip = pelvis + Vector3(x: body.hipHalfWidth, y: 0, z: 0)
        let rightKnee = rightHip + body.thigh * rightThigh
        let leftKnee = leftHip + body.thigh * leftThigh
        let rightAnkle = rightKnee + body.shank * rightShank
        let leftAnkle = leftKnee + body.shank * leftShank

        // The torso's frame: pelvis-fixed axes turned by the lean, then the side bend.
        func torsoFrame(_ v: Vector3) -> Vector3 {
            v.rotatedAboutX(torsoForwardLean).rotatedAboutZ(torsoSideBend)
        }
        let up = torsoFrame(.up)
        let lateral = torsoFrame(Vector3(x: 1, y: 0, z: 0))
        let forward = torsoFrame(.forward)
        let neck = pelvis + body.torso * up
        let rightShoulder = neck - body.shoulderHalfWidth * lateral
        let leftShoulder = neck + body.shoulderHalfWidth * lateral
        let (rightElbow, rightWrist) = Self.arm(rightArm, from: rightShoulder, side: -1, body: body, frame: torsoFrame)
        let (leftElbow, leftWrist) = Self.arm(leftArm, from: leftShoulder, side: 1, body: body, frame: torsoFrame)

        let h = body.head
        let nose = neck + h * up + (0.35 * h) * forward
        let rightEye = neck + (1.2 * h) * up - (0.3 * h) * lateral + (0.25 * h) * forward
        let leftEye = neck + (1.2 * h) * up + (0.3 * h) * lateral + (0.25 * h) * forward
        let rightEar = neck + (1.1 * h) * up - (0.65 * h) * lateral - (0.2 * h) * forward
        let leftEar = neck + (1.1 * h) * up + (0.65 * h) * lateral - (0.2 * h) * forward

        return [
            nose, neck, rightShoulder, rightElbow, rightWrist, leftShoulder, leftElbow, leftWrist,
            rightHip, rightKnee, rightAnkle, leftHip, leftKnee, leftAnkle,
            rightEye, leftEye, rightEar, leftEar,
        ]
    }

    /// A limb's unit direction from its abduction and flexion (see the type's discussion).
    static func direction(_ abduction: Double, _ flexion: Double, side: Double) -> Vector3 {
        Vector3(x: side * sin(abduction) * cos(flexion), y: -cos(abduction) * cos(flexion), z: sin(flexion))
    }

    /// Elbow and wrist of an arm; the forearm turns from the upper arm's direction by `bend`
    /// toward the torso's forward direction (or up, when the upper arm points forward).
    private static func arm(
        _ limb: Limb, from shoulder: Vector3, side: Double, body: BodyProportions, frame: (Vector3) -> Vector3
    ) -> (elbow: Vector3, wrist: Vector3) {
        let upper = direction(limb.abduction, limb.flexion, side: side)
        let hint = abs(upper.z) > 0.9 ? Vector3.up : Vector3.forward
        let across = (hint - upper.dot(hint) * upper).normalized(or: .up)
        let lower = cos(limb.bend) * upper + sin(limb.bend) * across
        let elbow = shoulder + body.upperArm * frame(upper)
        return (elbow, elbow + body.forearm * frame(lower))
    }
}
