/// MediaPipe's BlazePose landmark set and its conversion to Create ML's ``SkeletonLayout/vision18``.
///
/// Source of the 33 landmarks and their order: `PoseLandmark` in
/// `mediapipe/tasks/python/vision/pose_landmarker.py` (mediapipe 1.2.3) and the Pose Landmarker
/// guide (ai.google.dev/edge/mediapipe/solutions/vision/pose_landmarker). "Left" and "right" name
/// the **person's own** sides in BlazePose, as they do in Vision
/// (`VNHumanBodyPoseObservation.JointName.leftShoulder` is the subject's left shoulder, which
/// appears on the image's right when the person faces the camera), so left maps to left.
public enum BlazePose {
    /// The 33 landmark names in the library's order (index = position).
    public static let landmarkNames: [String] = [
        "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
        "right_eye_outer", "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder",
        "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_pinky",
        "right_pinky", "left_index", "right_index", "left_thumb", "right_thumb", "left_hip", "right_hip",
        "left_knee", "right_knee", "left_ankle", "right_ankle", "left_heel", "right_heel",
        "left_foot_index", "right_foot_index",
    ]

    /// Number of landmarks per person, 33.
    public static var landmarkCount: Int { landmarkNames.count }

    /// Where each ``SkeletonLayout/vision18`` joint comes from: `[18]`, the BlazePose landmark index
    /// of the same body part, or nil for the neck, which BlazePose lacks (see ``vision18Person(from:)``).
    ///
    /// vision18 order: nose, neck, rightShoulder, rightElbow, rightWrist, leftShoulder, leftElbow,
    /// leftWrist, rightHip, rightKnee, rightAnkle, leftHip, leftKnee, leftAnkle, rightEye, leftEye,
    /// rightEar, leftEar.
    public static let vision18Sources: [Int?] = [0, nil, 12, 14, 16, 11, 13, 15, 24, 26, 28, 23, 25, 27, 5, 2, 8, 7]

    /// vision18 index of the neck and of the shoulders it is built from.
    static let vision18Neck = 1, vision18RightShoulder = 2, vision18LeftShoulder = 5

    /// Converts one person's BlazePose landmarks to ``SkeletonLayout/vision18`` keypoints in
    /// Vision's convention.
    ///
    /// - Coordinates: x is kept (normalized to the displayed width); y becomes `1 - y`, moving the
    ///   origin from MediaPipe's top left to Vision's lower left.
    /// - Confidence: ``confidence(of:)``, the smaller of visibility and presence.
    /// - Out of frame: a landmark whose x, y, visibility or presence is not a finite value, or whose x or
    ///   y lies outside [0, 1] (BlazePose extrapolates body parts beyond the image edge), becomes
    ///   ``Keypoint/undetected`` (0, 0, 0): Vision reports only joints inside the frame, and
    ///   clamping would pile such joints on the border with a high confidence.
    /// - Neck: the midpoint of the two shoulders, with the smaller of their confidences (never
    ///   more certain than the weaker shoulder); undetected unless both shoulders are detected.
    ///   The midpoint of two points in [0, 1] stays in [0, 1].
    /// - A landmark index missing from `landmarks` (fewer than 33) gives an undetected joint.
    ///
    /// - Parameter landmarks: One person's landmarks, `[33]` in ``landmarkNames`` order.
    /// - Returns: The person with 18 keypoints, every value in [0, 1].
    public static func vision18Person(from landmarks: [BlazePoseLandmark]) -> DetectedPerson {
        var keypoints = vision18Sources.map { source -> Keypoint in
            guard let source, landmarks.indices.contains(source) else { return .undetected }
            return visionKeypoint(from: landmarks[source])
        }
        let right = keypoints[vision18RightShoulder], left = keypoints[vision18LeftShoulder]
        if right.isDetected && left.isDetected {
            keypoints[vision18Neck] = Keypoint(
                x: (right.x + left.x) / 2, y: (right.y + left.y) / 2, confidence: min(right.confidence, left.confidence))
        }
        return DetectedPerson(keypoints: keypoints)
    }

    /// A landmark's confidence: `min(visibility, presence)`, clamped to [0, 1] (for finite scores).
    ///
    /// Both are probabilities the landmark model estimates (visibility: in the image and not
    /// occluded; presence: in the image); the smaller bounds how sure the model is that the joint is
    /// where it says, without the product's double penalty for two correlated scores. A score the
    /// model does not report is left out; with neither, the confidence is 1 (the person as a whole
    /// already passed the landmarker's presence threshold).
    public static func confidence(of landmark: BlazePoseLandmark) -> Float {
        let scores = [landmark.visibility, landmark.presence].compactMap { $0 }
        return min(max(scores.min() ?? 1, 0), 1)
    }

    /// One landmark in Vision's convention, or ``Keypoint/undetected`` when outside the frame.
    static func visionKeypoint(from landmark: BlazePoseLandmark) -> Keypoint {
        let unitInterval: ClosedRange<Float> = 0...1
        let scoresAreFinite = [landmark.visibility, landmark.presence].allSatisfy { $0?.isFinite ?? true }
        // No range contains NaN, so the range checks also reject non-finite coordinates.
        guard unitInterval.contains(landmark.x), unitInterval.contains(landmark.y), scoresAreFinite else {
            return .undetected
        }
        return Keypoint(x: landmark.x, y: 1 - landmark.y, confidence: confidence(of: landmark))
    }
}
