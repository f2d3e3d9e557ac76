/// One person found in a frame: a keypoint per joint of the ``SkeletonLayout/vision18`` layout.
///
/// Keypoints follow Vision's convention (see ``Keypoint``): normalized coordinates in [0, 1],
/// origin at the lower left, undetected joints (0, 0, 0).
public struct DetectedPerson: Sendable, Hashable {
    /// `[18]` keypoints in ``SkeletonLayout/vision18`` joint order.
    public var keypoints: [Keypoint]

    /// Creates a person from keypoints in ``SkeletonLayout/vision18`` order.
    /// - Precondition: `keypoints.count == SkeletonLayout.vision18.jointCount`.
    public init(keypoints: [Keypoint]) {
        precondition(keypoints.count == SkeletonLayout.vision18.jointCount, "a person has one keypoint per vision18 joint")
        self.keypoints = keypoints
    }

    /// A person of whom nothing was detected: every joint (0, 0, 0).
    public static let undetected = DetectedPerson(
        keypoints: Array(repeating: .undetected, count: SkeletonLayout.vision18.jointCount))

    /// The area of the smallest axis-aligned box around the detected keypoints, in normalized
    /// frame units (a fraction of the frame's area); 0 with fewer than two detected keypoints.
    public var boundingBoxArea: Float {
        let detected = keypoints.filter(\.isDetected)
        guard let first = detected.first else { return 0 }
        var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        for keypoint in detected.dropFirst() {
            minX = min(minX, keypoint.x)
            maxX = max(maxX, keypoint.x)
            minY = min(minY, keypoint.y)
            maxY = max(maxY, keypoint.y)
        }
        return (maxX - minX) * (maxY - minY)
    }

    /// The keypoints as one frame of a ``PoseSequence``: `[3, 18]` values (channel, joint),
    /// all x, then all y, then all confidences.
    public var frameValues: [Float] {
        keypoints.map(\.x) + keypoints.map(\.y) + keypoints.map(\.confidence)
    }
}
