/// One transformation of a keypoint window, applied on the fly during training.
///
/// Steps act on one window `[T, C, J]` at a time. Geometric steps (flip, rotation, scale,
/// translation, shear) move the `x` and `y` channels of detected joints in normalized image
/// coordinates about the skeleton's centre (the mean `x`, `y` of the window's detected joints),
/// the same transform for every frame. A joint is *detected* unless the layout marks undetected
/// joints with zeros and all its channels are 0 (Vision's padding). Undetected joints stay
/// (0, …, 0) through every step; frame drop and joint dropout only add undetected joints.
public enum AugmentationStep: Sendable, Hashable, Codable {
    /// With probability `probability`: `x → 1 − x` for detected joints, then the values of
    /// each mirror pair swapped (left wrist ↔ right wrist), so a left-handed action becomes a
    /// right-handed one.
    case horizontalFlip(probability: Double)
    /// Rotation by an angle uniform in `±degrees` about the skeleton's centre.
    case rotation(degrees: Double)
    /// Scaling by a factor uniform in `[minimum, maximum]` about the skeleton's centre; for
    /// layouts without `x` and `y` (sensor channels), of every coordinate channel about zero.
    case scale(minimum: Double, maximum: Double)
    /// Shift of `x` and `y`, each uniform in `±maximum` (normalized units).
    case translation(maximum: Double)
    /// Shear `x += a·(y − cy)`, `y += b·(x − cx)` with `a`, `b` uniform in `±maximum`.
    case shear(maximum: Double)
    /// Independent Gaussian noise with the given standard deviation on every coordinate
    /// channel (all but `confidence`) of every detected joint and frame.
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

    /// Whether the step moves `x` and `y` in the image and so needs an image-pose layout
    /// (`SkeletonLayout.isImagePose`).
    var needsPlanarCoordinates: Bool {
        switch self {
        case .horizontalFlip, .rotation, .translation, .shear: return true
        case .scale, .jitter, .timeInterpolation, .frameDrop, .jointDropout: return false
        }
    }
}
