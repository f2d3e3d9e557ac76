/// One transformation of a keypoint window, applied on the fly during training.
///
/// Steps act on one window `[T, C, J]` at a time. Geometric steps (flip, rotation, scale,
/// translation, shear) move the coordinates of detected joints about the skeleton's centre, the
/// same transform for every frame, on two kinds of layout:
/// - body pose in image coordinates (`SkeletonLayout.isImagePose`: channels `x`, `y`,
///   `confidence`): `x` and `y` in normalized image units, about the mean `x`, `y` of the
///   window's detected joints; `confidence` is left alone;
/// - 3-D skeletons (`SkeletonLayout.isSkeleton3D`: channels `x`, `y`, `z` in metres, `y` up, such
///   as `kinect-v1`): `x`, `y` and `z` in metres, about the mean `x`, `y`, `z` of the window's
///   detected joints.
///
/// A joint is *detected* unless the layout marks undetected joints with zeros and all its
/// channels are 0 (Vision's padding, an untracked Kinect joint, a padded frame). Undetected
/// joints stay (0, …, 0) through every step; frame drop and joint dropout only add undetected
/// joints.
public enum AugmentationStep: Sendable, Hashable, Codable {
    /// With probability `probability`, mirrors the skeleton left to right, then swaps the values
    /// of each mirror pair (left wrist ↔ right wrist), so a left-handed action becomes a
    /// right-handed one.
    ///
    /// On image pose `x → 1 − x` (about the image's vertical centre line); on 3-D skeletons
    /// `x → 2·cx − x` (about the vertical plane through the skeleton's centre).
    case horizontalFlip(probability: Double)
    /// Rotation by an angle θ uniform in `±degrees` about the skeleton's centre.
    ///
    /// On image pose the rotation is in the image plane (`x`, `y`); on 3-D skeletons it is about
    /// the vertical axis (`y`) through the centre, as a change of the camera's viewing direction:
    /// `x' = cos θ·dx + sin θ·dz`, `z' = −sin θ·dx + cos θ·dz`, `y` unchanged.
    case rotation(degrees: Double)
    /// Scaling by a factor uniform in `[minimum, maximum]` about the skeleton's centre (of `x`,
    /// `y` on image pose; of `x`, `y`, `z` on 3-D skeletons); for layouts without a skeleton
    /// (sensor channels), of every coordinate channel about zero.
    case scale(minimum: Double, maximum: Double)
    /// Shift of every coordinate, each uniform in `±maximum`: `x` and `y` in normalized image
    /// units on image pose; `x`, `y` and `z` in metres on 3-D skeletons.
    case translation(maximum: Double)
    /// Shear about the skeleton's centre, each coefficient uniform in `±maximum`.
    ///
    /// On image pose `x += a·(y − cy)`, `y += b·(x − cx)`. On 3-D skeletons every coordinate
    /// takes a multiple of the other two: `d' = S·d` with `S` the identity plus six independent
    /// off-diagonal coefficients, drawn in the order `s_xy, s_xz, s_yx, s_yz, s_zx, s_zy`
    /// (SkeletonCLR/CrosSCLR's `shear`, Li et al., CVPR 2021, `feeder/tools.py`).
    case shear(maximum: Double)
    /// Independent Gaussian noise with the given standard deviation on every coordinate
    /// channel (all but `confidence`) of every detected joint and frame, in the layout's units
    /// (normalized image units, metres, sensor units).
    case jitter(standardDeviation: Double)
    /// Replays the window at a speed factor uniform in `[minimumSpeed, maximumSpeed]` about its
    /// middle frame: output frame `t` reads input position `c + (t − c)·speed`, `c = (T − 1) / 2`,
    /// linearly interpolated between frames; positions outside the window give undetected frames.
    case timeInterpolation(minimumSpeed: Double, maximumSpeed: Double)
    /// Each frame independently becomes undetected (all joints zero) with this probability, as
    /// when the pose estimator misses the person.
    case frameDrop(probability: Double)
    /// Each joint of each frame independently becomes undetected with this probability.
    case jointDropout(probability: Double)

    /// The step's name in manifests (`kind`).
    public var kind: String {
        switch self {
        case .horizontalFlip: return "flip"
        case .rotation: return "rotation"
        case .scale: return "scale"
        case .translation: return "translation"
        case .shear: return "shear"
        case .jitter: return "jitter"
        case .timeInterpolation: return "timeInterpolation"
        case .frameDrop: return "frameDrop"
        case .jointDropout: return "jointDropout"
        }
    }

    /// The names of every kind of step, in the order of the cases.
    public static let kinds = ["flip", "rotation", "scale", "translation", "shear", "jitter", "timeInterpolation", "frameDrop", "jointDropout"]

    /// Whether the step moves joints in space and so needs a skeleton with coordinates: body
    /// pose in image coordinates (`SkeletonLayout.isImagePose`) or a 3-D skeleton
    /// (`SkeletonLayout.isSkeleton3D`).
    var needsSkeletonCoordinates: Bool {
        switch self {
        case .horizontalFlip, .rotation, .translation, .shear: return true
        case .scale, .jitter, .timeInterpolation, .frameDrop, .jointDropout: return false
        }
    }
}
