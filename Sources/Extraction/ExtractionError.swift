import FeatureCache
import Foundation
import Pose
import Video

/// Why poses could not be extracted from one video or picture, naming the file and carrying the
/// underlying library's error.
public enum ExtractionError: Error, CustomStringConvertible, LocalizedError {
    /// FFmpeg could not open or decode the file (missing, not a video, truncated, corrupt).
    case video(VideoError)
    /// MediaPipe failed on a frame of `file` at `timestamp` seconds (or while starting, at nil).
    case pose(file: String, timestamp: Double?, PoseEstimationError)
    /// The feature cache could not hash the file or store its entry.
    case cache(file: String, FeatureCacheError)
    /// The file decoded to no frame at all.
    case noFrames(file: String)

    /// The file the error is about.
    public var file: String {
        switch self {
        case let .video(error): error.filePath
        case let .pose(file, _, _), let .cache(file, _), let .noFrames(file): file
        }
    }

    public var description: String {
        switch self {
        case let .video(error):
            return "\(error)"
        case let .pose(file, timestamp, error):
            let when = timestamp.map { " at \(String(format: "%.3f", $0)) s" } ?? ""
            return "\(file): pose estimation failed\(when): \(error)"
        case let .cache(file, error):
            return "\(file): feature cache: \(error)"
        case let .noFrames(file):
            return "\(file): no frame could be decoded"
        }
    }

    public var errorDescription: String? { description }
}
