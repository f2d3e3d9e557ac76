import Foundation

/// Where a synthetic body appears in the image: viewing angle, size and position.
///
/// The projection is orthographic: the body is turned by ``yaw`` about the vertical axis, its
/// depth is dropped, the image is rolled by ``roll`` about the body's mid-height, scaled by
/// ``scale`` and placed with its feet's centre at ``origin`` (plus a linear ``drift`` over the
/// sequence). Image coordinates follow Vision: normalized to [0, 1], origin at the lower left,
/// y up; a square frame is assumed, so x and y share one scale.
struct CameraView: Sendable, Hashable {
    /// Rotation of the body about the vertical axis, in radians; positive turns the body's left
    /// side away from the camera.
    var yaw: Double
    /// In-plane rotation, in radians, counter-clockwise.
    var roll: Double
    /// Image units per unit of body height.
    var scale: Double
    /// Image position of the point between the feet at the start of the sequence.
    var origin: (x: Double, y: Double)
    /// Movement of ``origin`` over the whole sequence, in image units.
    var drift: (x: Double, y: Double)

    /// The image position of a body point, `progress` being the fraction of the sequence elapsed.
    func project(_ point: Vector3, progress: Double) -> (x: Double, y: Double) {
        let turned = point.rotatedAboutY(yaw)
        // Roll about the body's mid-height so that the figure stays in place.
        let centred = Vector3(x: turned.x, y: turned.y - 0.5, z: 0).rotatedAboutZ(roll)
        return (origin.x + drift.x * progress + scale * centred.x,
                origin.y + drift.y * progress + scale * (centred.y + 0.5))
    }

    static func == (a: CameraView, b: CameraView) -> Bool {
        a.yaw == b.yaw && a.roll == b.roll && a.scale == b.scale && a.origin == b.origin && a.drift == b.drift
    }

    func hash(into hasher: inout Hasher) {
        for value in [yaw, roll, scale, origin.x, origin.y, drift.x, drift.y] { hasher.combine(value) }
    }
}
