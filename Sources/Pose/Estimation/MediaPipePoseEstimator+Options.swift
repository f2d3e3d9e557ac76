internal import CMediaPipe

extension MediaPipePoseEstimator {
    /// How a ``MediaPipePoseEstimator`` is set up; the defaults are MediaPipe's own
    /// (`PoseLandmarkerOptions` in `mediapipe/tasks/python/vision/pose_landmarker.py`), except the
    /// running mode, which defaults to video.
    public struct Options: Sendable, Hashable {
        /// How frames relate to each other.
        public enum RunningMode: String, Sendable, Hashable, CaseIterable {
            /// Independent still pictures: every call detects people afresh.
            case image
            /// Frames of one video in display order with strictly increasing timestamps: people
            /// found in one frame are tracked into the next, which is faster and steadier.
            case video

            var mediaPipeValue: MpRunningMode {
                switch self {
                case .image: kMpRunningModeImage
                case .video: kMpRunningModeVideo
                }
            }
        }

        /// The pose landmarker model bundle (`.task`), or nil to look it up (``MediaPipeAssets``).
        public var modelPath: String?
        /// libmediapipe.so, or nil to look it up (``MediaPipeAssets``).
        public var libraryPath: String?
        /// Image or video mode.
        public var runningMode: RunningMode
        /// The most people reported per frame, at least 1 (MediaPipe's `num_poses`).
        public var numberOfPoses: Int
        /// Minimum score, in [0, 1], for the person detector to report a person
        /// (`min_pose_detection_confidence`).
        public var minimumPoseDetectionConfidence: Float
        /// Minimum score, in [0, 1], of the landmark model's belief that a person is present
        /// (`min_pose_presence_confidence`).
        public var minimumPosePresenceConfidence: Float
        /// Minimum score, in [0, 1], to keep tracking a person into the next video frame instead of
        /// detecting afresh (`min_tracking_confidence`).
        public var minimumTrackingConfidence: Float

        /// Creates options.
        public init(
            modelPath: String? = nil, libraryPath: String? = nil, runningMode: RunningMode = .video,
            numberOfPoses: Int = 1, minimumPoseDetectionConfidence: Float = 0.5,
            minimumPosePresenceConfidence: Float = 0.5, minimumTrackingConfidence: Float = 0.5
        ) {
            self.modelPath = modelPath
            self.libraryPath = libraryPath
            self.runningMode = runningMode
            self.numberOfPoses = numberOfPoses
            self.minimumPoseDetectionConfidence = minimumPoseDetectionConfidence
            self.minimumPosePresenceConfidence = minimumPosePresenceConfidence
            self.minimumTrackingConfidence = minimumTrackingConfidence
        }

        /// Checks every option's range.
        /// - Throws: ``PoseEstimationError/invalidOption(name:value:expected:)`` for the first one out of range.
        public func validate() throws {
            guard (1...Int(Int32.max)).contains(numberOfPoses) else {
                throw PoseEstimationError.invalidOption(
                    name: "numberOfPoses", value: "\(numberOfPoses)", expected: "a whole number of at least 1")
            }
            let confidences: [(String, Float)] = [
                ("minimumPoseDetectionConfidence", minimumPoseDetectionConfidence),
                ("minimumPosePresenceConfidence", minimumPosePresenceConfidence),
                ("minimumTrackingConfidence", minimumTrackingConfidence),
            ]
            for (name, value) in confidences where !(0...1).contains(value) {
                throw PoseEstimationError.invalidOption(name: name, value: "\(value)", expected: "a value in [0, 1]")
            }
        }
    }
}
