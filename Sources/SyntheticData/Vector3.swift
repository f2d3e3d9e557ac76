import Foundation

/// A point or direction in the synthetic body's 3-D frame, in units of standing height.
///
/// Axes: x to the camera's right (the body's left when it faces the camera), y up, z toward
/// the camera.
struct Vector3: Sendable, Hashable {
    var x: Double
    var y: Double
    var z: Double

    static let zero = Vector3(x: 0, y: 0, z: 0)
    static let up = Vector3(x: 0, y: 1, z: 0)
    static let forward = Vector3(x: 0, y: 0, z: 1)

    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    static func * (s: Double, v: Vector3) -> Vector3 { Vector3(x: s * v.x, y: s * v.y, z: s * v.z) }

    func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    var length: Double { dot(self).squareRoot() }

    /// The unit vector in this direction, or `fallback` for a (near) zero vector.
    func normalized(or fallback: Vector3) -> Vector3 {
        let length = self.length
        return length > 1e-9 ? (1 / length) * self : fallback
    }

    /// Rotated by `angle` radians about the z axis (counter-clockwise seen from the camera).
    func rotatedAboutZ(_ angle: Double) -> Vector3 {
        Vector3(x: x * cos(angle) - y * sin(angle), y: x * sin(angle) + y * cos(angle), z: z)
    }

    /// Rotated by `angle` radians about the x axis; positive turns up (+y) toward the camera (+z).
    func rotatedAboutX(_ angle: Double) -> Vector3 {
        Vector3(x: x, y: y * cos(angle) - z * sin(angle), z: y * sin(angle) + z * cos(angle))
    }

    /// Rotated by `angle` radians about the vertical axis; positive turns +x away from the camera.
    func rotatedAboutY(_ angle: Double) -> Vector3 {
        Vector3(x: x * cos(angle) + z * sin(angle), y: y, z: -x * sin(angle) + z * cos(angle))
    }
}
