/// The joints and channels of a keypoint array, with the mirror pairs and graph edges that
/// augmentations and graph models need.
///
/// A layout is data, not code: the built-in layouts below and layouts declared in a manifest
/// are all instances of this one type. A keypoint array laid out by it has shape
/// `[T, channels.count, joints.count]` (time, channel, joint).
public struct SkeletonLayout: Sendable, Hashable, Codable {
    /// The layout's name, as manifests refer to it (`vision18`, `accelerometer-gyroscope`).
    public var name: String
    /// Joint names in array order (the `J` axis).
    public var joints: [String]
    /// Channel names in array order (the `C` axis): `["x", "y", "confidence"]` for body pose.
    public var channels: [String]
    /// Pairs of joint indices that swap under a horizontal flip.
    public var mirrorPairs: [JointPair]
    /// Undirected bones between joint indices; empty for layouts with no skeleton (sensors).
    public var edges: [JointPair]

    /// A pair of joint indices; encoded as the two-element array `[first, second]`, as
    /// manifests write it.
    public struct JointPair: Sendable, Hashable, Codable {
        public var first: Int
        public var second: Int
        public init(_ first: Int, _ second: Int) {
            self.first = first
            self.second = second
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(first)
            try container.encode(second)
        }

        public init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(Int.self)
            guard container.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a joint pair has exactly two indices")
            }
        }
    }

    /// Creates a layout; `validate()` checks that indices are in range.
    public init(name: String, joints: [String], channels: [String], mirrorPairs: [JointPair] = [], edges: [JointPair] = []) {
        self.name = name
        self.joints = joints
        self.channels = channels
        self.mirrorPairs = mirrorPairs
        self.edges = edges
    }

    /// Number of joints, `J`.
    public var jointCount: Int { joints.count }
    /// Number of channels, `C`.
    public var channelCount: Int { channels.count }

    /// Whether an all-zero joint means "not detected" rather than a measured zero: true for
    /// layouts with a `confidence` channel (body pose, where Vision pads missing joints with
    /// (0, 0, 0)), false for sensor layouts, where zero is a reading.
    public var marksUndetectedJointsWithZeros: Bool { channels.contains("confidence") || isSkeleton3D }

    /// Whether this is body pose in image coordinates: channels `x`, `y` and `confidence`, as
    /// Vision and pose estimators report keypoints. Geometric augmentations (flip, rotation,
    /// translation, shear) need it or ``isSkeleton3D``; sensor layouts such as accelerometer x, y,
    /// z qualify for neither.
    public var isImagePose: Bool { ["x", "y", "confidence"].allSatisfy(channels.contains) }

    /// Whether this is a 3-D skeleton in metres: channels `x`, `y` and `z` (no confidence) and
    /// bones between the joints, as a depth camera (Kinect) or motion capture reports them. `y`
    /// points up. Such a layout also marks undetected joints (and padded frames) with (0, 0, 0):
    /// a tracked joint is never exactly at the camera's centre.
    public var isSkeleton3D: Bool {
        ["x", "y", "z"].allSatisfy(channels.contains) && !channels.contains("confidence") && !edges.isEmpty
    }

    /// Problems with this layout (empty names, indices out of range, a joint paired with itself).
    public func problems() -> [String] {
        var problems: [String] = []
        if joints.isEmpty { problems.append("layout '\(name)' has no joints") }
        if channels.isEmpty { problems.append("layout '\(name)' has no channels") }
        if Set(joints).count != joints.count { problems.append("layout '\(name)' repeats a joint name") }
        for (kind, pairs) in [("mirror pair", mirrorPairs), ("edge", edges)] {
            for pair in pairs {
                if !joints.indices.contains(pair.first) || !joints.indices.contains(pair.second) {
                    problems.append("layout '\(name)': \(kind) (\(pair.first), \(pair.second)) names a joint outside 0..<\(joints.count)")
                } else if pair.first == pair.second {
                    problems.append("layout '\(name)': \(kind) (\(pair.first), \(pair.second)) pairs a joint with itself")
                }
            }
        }
        return problems
    }
}

extension SkeletonLayout {
    /// Create ML's action-classifier body pose: 18 joints in the order of its `poses` input
    /// `[window, 3, 18]`, which is the OpenPose COCO-18 order; channels x, y (normalized, origin
    /// lower left, as Vision reports them) and confidence. An undetected joint is (0, 0, 0).
    public static let vision18 = SkeletonLayout(
        name: "vision18",
        joints: [
            "nose", "neck", "rightShoulder", "rightElbow", "rightWrist", "leftShoulder", "leftElbow",
            "leftWrist", "rightHip", "rightKnee", "rightAnkle", "leftHip", "leftKnee", "leftAnkle",
            "rightEye", "leftEye", "rightEar", "leftEar",
        ],
        channels: ["x", "y", "confidence"],
        mirrorPairs: [(2, 5), (3, 6), (4, 7), (8, 11), (9, 12), (10, 13), (14, 15), (16, 17)].map { JointPair($0.0, $0.1) },
        // OpenPose COCO-18 limbs (the graph ST-GCN uses for its `openpose` layout).
        edges: [
            (4, 3), (3, 2), (7, 6), (6, 5), (13, 12), (12, 11), (10, 9), (9, 8), (11, 5), (8, 2),
            (5, 1), (2, 1), (0, 1), (15, 0), (14, 0), (17, 15), (16, 14),
        ].map { JointPair($0.0, $0.1) })

    /// A smartwatch's inertial sensors: joints `accelerometer` and `gyroscope`, channels x, y, z.
    /// No edges: graph models treat the joints as unconnected. UEA/UCR BasicMotions' six
    /// dimensions map onto it joint-major (accelerometer x, y, z, then gyroscope x, y, z).
    public static let accelerometerGyroscope = SkeletonLayout(
        name: "accelerometer-gyroscope",
        joints: ["accelerometer", "gyroscope"],
        channels: ["x", "y", "z"])

    /// One tracked scalar per frame (one joint, one channel), as in UEA/UCR univariate series such
    /// as GunPoint (the x coordinate of the actor's hand).
    public static let univariate = SkeletonLayout(name: "univariate", joints: ["value"], channels: ["x"])

    /// Kinect v1's skeleton (Microsoft Kinect SDK 1.x `NUI_SKELETON_POSITION_INDEX`), in the joint
    /// order of UTD-MHAD's `Skeleton_joint_order.txt`: 20 joints, channels x, y, z in metres in the
    /// camera's frame (y up, z away from the camera). Edges are the SDK's bone tree rooted at
    /// `hipCenter`; mirror pairs swap the subject's left and right limbs.
    public static let kinectV1 = SkeletonLayout(
        name: "kinect-v1",
        joints: [
            "head", "shoulderCenter", "spine", "hipCenter", "leftShoulder", "leftElbow", "leftWrist", "leftHand",
            "rightShoulder", "rightElbow", "rightWrist", "rightHand", "leftHip", "leftKnee", "leftAnkle", "leftFoot",
            "rightHip", "rightKnee", "rightAnkle", "rightFoot",
        ],
        channels: ["x", "y", "z"],
        mirrorPairs: [(4, 8), (5, 9), (6, 10), (7, 11), (12, 16), (13, 17), (14, 18), (15, 19)].map { JointPair($0.0, $0.1) },
        edges: [
            (3, 2), (2, 1), (1, 0), (1, 4), (4, 5), (5, 6), (6, 7), (1, 8), (8, 9), (9, 10), (10, 11),
            (3, 12), (12, 13), (13, 14), (14, 15), (3, 16), (16, 17), (17, 18), (18, 19),
        ].map { JointPair($0.0, $0.1) })

    /// The layouts that manifests can name without declaring them.
    public static let builtIn: [SkeletonLayout] = [.vision18, .kinectV1, .accelerometerGyroscope, .univariate]

    /// The built-in layout with the given name, or nil.
    public static func builtIn(named name: String) -> SkeletonLayout? {
        builtIn.first { $0.name == name }
    }
}
