/// OpenPose's body keypoint orders and their conversion to ``SkeletonLayout/vision18`` people.
///
/// OpenPose writes a person as a flat array `[x0, y0, c0, x1, y1, c1, ...]` in its model's joint
/// order: COCO (18 joints, exactly the ``SkeletonLayout/vision18`` order) or BODY_25 (25 joints:
/// the COCO joints with a mid-hip at index 8 and six foot joints at the end). A joint with
/// confidence 0 was not detected.
/// Source: OpenPose `doc/02_output.md`, "Pose Output Format (BODY_25)" and "(COCO)".
enum OpenPoseSkeleton {
    /// For each ``SkeletonLayout/vision18`` joint, its index in BODY_25: the COCO order with
    /// BODY_25's mid-hip (8) and foot joints (19–24) left out.
    static let body25ToVision18 = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]

    /// The joint order of a person array with `jointCount` joints, as indices per vision18 joint;
    /// nil for a model ActionLab does not read.
    static func vision18Indices(jointCount: Int) -> [Int]? {
        switch jointCount {
        case 18: Array(0..<18)
        case 25: body25ToVision18
        default: nil
        }
    }

    /// The ``SkeletonLayout/vision18`` joints of a person that were detected at a position outside
    /// [0, 1], which ``person(positions:confidences:indices:)`` clamps onto the image border.
    ///
    /// - Parameters: As for ``person(positions:confidences:indices:)``.
    /// - Returns: `(vision18 joint, x, y)` per such joint, positions as given (normalized, top left).
    static func outsideJoints(positions: [(x: Double, y: Double)], confidences: [Double], indices: [Int]) -> [(joint: Int, x: Double, y: Double)] {
        indices.enumerated().compactMap { joint, index in
            let (x, y) = positions[index]
            guard confidences[index] > 0, !(0...1).contains(x) || !(0...1).contains(y) else { return nil }
            return (joint, x, y)
        }
    }

    /// The person a frame keeps among `people` (``DetectedPerson/mostProminent(among:)``), with
    /// its joints that were clamped onto the image border counted in `clamped`.
    ///
    /// - Parameters:
    ///   - people: Each person with its joints outside the image (``outsideJoints(positions:confidences:indices:)``).
    ///   - clamped: The count to add the kept person's clamped joints to.
    ///   - location: Describes a clamped joint; called only for the first one counted.
    /// - Returns: The kept person, or nil for a frame without people.
    static func keptPerson(
        among people: [(person: DetectedPerson, outside: [(joint: Int, x: Double, y: Double)])],
        counting clamped: inout ClampedKeypoints, location: ((joint: Int, x: Double, y: Double)) -> String
    ) -> DetectedPerson? {
        guard let kept = DetectedPerson.mostProminent(among: people.map(\.person)) else { return nil }
        for joint in people.first(where: { $0.person == kept })?.outside ?? [] {
            clamped.record(location(joint))
        }
        return kept
    }

    /// A person from per-joint positions and confidences in OpenPose's image convention.
    ///
    /// - Parameters:
    ///   - positions: `(x, y)` per joint of the source order, normalized to [0, 1] with the origin
    ///     at the top left.
    ///   - confidences: one per joint; 0 means not detected.
    ///   - indices: for each vision18 joint, its index in the source order.
    /// - Returns: The person in Vision's convention (origin lower left, `y = 1 - y`), undetected
    ///   joints (0, 0, 0), coordinates clamped to [0, 1] and confidences to [0, 1].
    static func person(positions: [(x: Double, y: Double)], confidences: [Double], indices: [Int]) -> DetectedPerson {
        DetectedPerson(keypoints: indices.map { index in
            let confidence = confidences[index]
            guard confidence > 0 else { return .undetected }
            let (x, y) = positions[index]
            return Keypoint(
                x: Float(min(max(x, 0), 1)), y: Float(min(max(1 - y, 0), 1)), confidence: Float(min(confidence, 1)))
        })
    }
}
