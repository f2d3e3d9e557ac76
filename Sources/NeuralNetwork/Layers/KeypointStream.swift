/// What a skeleton model classifies: the joints themselves, the bones between them, or the
/// motion of either from one frame to the next (the four streams of PYSKL's `GenSkeFeat`: `j`,
/// `b`, `jm`, `bm`; Duan et al., "PYSKL: Towards Good Practices for Skeleton Action
/// Recognition", ACM MM 2022; the two-stream idea from Shi et al., 2s-AGCN, CVPR 2019).
///
/// A model computes its stream itself from raw keypoints (``KeypointStreamLayer``), so a model
/// exported from a bone or motion trial still takes the window of keypoints every other
/// model takes. Trials that differ only in stream are fused into an ensemble by the sweep.
public enum KeypointStream: String, Codable, Hashable, Sendable, CaseIterable {
    /// The keypoints as they are (after the in-model normalization, if any).
    case joint
    /// Each joint minus its parent along the layout's bone tree; a root joint's bone is 0.
    case bone
    /// Each joint's next frame minus this frame; the last frame is 0.
    case jointMotion
    /// The motion of the bones.
    case boneMotion

    /// Whether the stream takes differences along the bone tree.
    public var usesBones: Bool { self == .bone || self == .boneMotion }

    /// Whether the stream takes differences between consecutive frames.
    public var usesMotion: Bool { self == .jointMotion || self == .boneMotion }

    /// PYSKL's short name of the stream: `j`, `b`, `jm`, `bm`.
    public var shortName: String {
        switch self {
        case .joint: "j"
        case .bone: "b"
        case .jointMotion: "jm"
        case .boneMotion: "bm"
        }
    }
}
