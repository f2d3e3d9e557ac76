/// One axis of a keypoint array: time (frames), channel or joint.
///
/// ActionLab's own keypoint arrays are `[T, C, J]`; a source file may store its axes in another
/// order (UTD-MHAD's `d_skel` is `[J, C, T]` in MATLAB's column-major order), stated as a
/// permutation of these three.
public enum KeypointAxis: String, Sendable, Hashable, Codable, CaseIterable {
    /// Frames (`T`).
    case time = "T"
    /// Channels of a joint, such as x, y, z or confidence (`C`).
    case channel = "C"
    /// Joints of the skeleton layout (`J`).
    case joint = "J"

    /// ActionLab's order, `[T, C, J]`.
    public static let poseSequenceOrder: [KeypointAxis] = [.time, .channel, .joint]

    /// Whether `axes` names each of T, C and J exactly once.
    public static func isPermutation(_ axes: [KeypointAxis]) -> Bool {
        axes.count == 3 && Set(axes).count == 3
    }
}

extension KeypointAxis: CustomStringConvertible {
    /// The axis as manifests write it: `T`, `C` or `J`.
    public var description: String { rawValue }
}
