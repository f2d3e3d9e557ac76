import Foundation
import ManifestSchema
import Pose

/// How MediaPipe's pose landmarker is set up for video sources (`features.pose`).
///
/// Defaults are MediaPipe's own (`PoseLandmarkerOptions`). Every value is part of the feature
/// cache's key, so changing one extracts the videos again.
public struct PoseEstimationConfiguration: Sendable, Hashable {
    /// The most people the landmarker reports per frame (`numPoses`, ≥ 1); the most prominent
    /// one is kept, and the count feeds `actionlab check`'s "more than one person" share.
    public var numPoses: Int
    /// Minimum person-detector score in [0, 1] (`minPoseDetectionConfidence`).
    public var minPoseDetectionConfidence: Double
    /// Minimum landmark-model presence score in [0, 1] (`minPosePresenceConfidence`).
    public var minPosePresenceConfidence: Double
    /// Minimum score in [0, 1] to keep tracking a person into the next frame (`minTrackingConfidence`).
    public var minTrackingConfidence: Double
    /// The pose landmarker model bundle (`.task`: a person detector and a landmark model), or nil
    /// for the one `scripts/setup` builds, MediaPipe's full BlazePose model (looked up by
    /// ``MediaPipeAssets``). MediaPipe also publishes a lite (faster) and a heavy (more accurate)
    /// bundle; they are not on PyPI, so `scripts/setup` cannot fetch them, but a downloaded one
    /// can be named here. The cache key holds the bundle's SHA-256, not its path.
    public var model: URL?

    /// Creates a configuration; the defaults are MediaPipe's.
    public init(
        numPoses: Int = 1, minPoseDetectionConfidence: Double = 0.5, minPosePresenceConfidence: Double = 0.5,
        minTrackingConfidence: Double = 0.5, model: URL? = nil
    ) {
        self.numPoses = numPoses
        self.minPoseDetectionConfidence = minPoseDetectionConfidence
        self.minPosePresenceConfidence = minPosePresenceConfidence
        self.minTrackingConfidence = minTrackingConfidence
        self.model = model
    }

    /// The estimator options these settings give (video running mode; the library, and the model
    /// unless ``model`` names one, looked up by ``MediaPipeAssets``).
    public var estimatorOptions: MediaPipePoseEstimator.Options {
        MediaPipePoseEstimator.Options(
            modelPath: model?.path, runningMode: .video, numberOfPoses: numPoses, minimumPoseDetectionConfidence: Float(minPoseDetectionConfidence),
            minimumPosePresenceConfidence: Float(minPosePresenceConfidence), minimumTrackingConfidence: Float(minTrackingConfidence))
    }
}
