import ManifestSchema

extension PoseEstimationConfiguration: ManifestSection {
    package static var defaults: PoseEstimationConfiguration { PoseEstimationConfiguration() }

    package static var settings: [Setting<PoseEstimationConfiguration>] {
        [
            Setting("numPoses", \.numPoses, .integer(.positive),
                    "people MediaPipe reports per frame (one is followed through a clip, the most prominent at first; `check` counts them)"),
            Setting("minPoseDetectionConfidence", \.minPoseDetectionConfidence, .number(.closed(0, 1)),
                    "MediaPipe's person-detector threshold"),
            Setting("minPosePresenceConfidence", \.minPosePresenceConfidence, .number(.closed(0, 1)),
                    "MediaPipe's landmark presence threshold"),
            Setting("minTrackingConfidence", \.minTrackingConfidence, .number(.closed(0, 1)),
                    "MediaPipe's threshold to keep tracking a person into the next frame"),
            Setting("model", \.model, .optional(.existingFile),
                    "pose landmarker bundle (`.task`), such as MediaPipe's `pose_landmarker_lite.task` or `pose_landmarker_heavy.task` "
                        + "(downloaded by you: not on PyPI); the cache key holds its SHA-256, so changing it extracts the videos again")
                .defaultText("MediaPipe's full model, built by `scripts/setup` (`data/pose/pose_landmarker_full.task`)"),
        ]
    }
}

extension PoseEstimationConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
