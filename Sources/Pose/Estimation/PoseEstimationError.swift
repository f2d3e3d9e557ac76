/// Why a pose estimator could not be created or could not process a frame.
///
/// Problems a user fixes by installing something say which command fixes them; failures inside
/// MediaPipe carry MediaPipe's own status and message.
public enum PoseEstimationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libmediapipe.so is at none of the `searched` paths (see ``MediaPipeAssets``).
    case libraryNotFound(searched: [String])
    /// libmediapipe.so exists but the dynamic loader refused it; `reason` is `dlerror()`'s message
    /// (typically a missing libEGL or libGLESv2).
    case libraryNotLoadable(path: String, reason: String)
    /// The library lacks a function ActionLab calls: a MediaPipe version other than the pinned one.
    case missingFunction(name: String, libraryPath: String)
    /// The pose landmarker model bundle (`.task`) is at none of the `searched` paths.
    case modelNotFound(searched: [String])
    /// A MediaPipe function failed: `function` is its C name, `status` its status code and
    /// `message` MediaPipe's own error message.
    case mediaPipe(function: String, status: MediaPipeStatus, message: String)
    /// A MediaPipe function reported success but did not return the object it creates.
    case noResult(function: String)
    /// A picture handed to the estimator is malformed.
    case invalidImage(reason: String)
    /// In video mode, a frame's timestamp (milliseconds, as MediaPipe takes them) did not increase
    /// past the previous frame's.
    case timestampNotIncreasing(previousMilliseconds: Int64, milliseconds: Int64)
    /// An estimator option is out of its range.
    case invalidOption(name: String, value: String, expected: String)
    /// The estimator was used after ``MediaPipePoseEstimator/close()``.
    case closed

    /// The error in words, ending with the command that fixes it where there is one.
    public var description: String {
        let setup = "run scripts/setup"
        switch self {
        case let .libraryNotFound(searched):
            return "libmediapipe.so not found at \(searched.joined(separator: ", ")): \(setup) "
                + "(or set \(MediaPipeAssets.libraryEnvironmentVariable) to its path)"
        case let .libraryNotLoadable(path, reason):
            return "cannot load \(path): \(reason): \(setup) (it installs libegl1 and libgles2)"
        case let .missingFunction(name, path):
            return "\(path) has no function \(name); ActionLab needs the library from mediapipe==1.2.3: \(setup)"
        case let .modelNotFound(searched):
            return "pose landmarker model not found at \(searched.joined(separator: ", ")): \(setup) "
                + "(or set \(MediaPipeAssets.modelEnvironmentVariable) to a pose_landmarker .task file)"
        case let .mediaPipe(function, status, message):
            return "MediaPipe \(function) failed (\(status)): \(message)"
        case let .noResult(function):
            return "MediaPipe \(function) reported success but returned nothing"
        case let .invalidImage(reason):
            return "invalid image: \(reason)"
        case let .timestampNotIncreasing(previous, current):
            return "video frame timestamps must increase strictly: \(current) ms follows \(previous) ms"
        case let .invalidOption(name, value, expected):
            return "pose estimator option \(name) is \(value), expected \(expected)"
        case .closed:
            return "the pose estimator was used after it was closed"
        }
    }
}

/// A MediaPipe C API status code (`MpStatus`, the codes of absl::Status).
public struct MediaPipeStatus: Sendable, Hashable, CustomStringConvertible {
    /// The numeric code, 0 for success.
    public var code: Int32

    /// Creates a status from its code.
    public init(code: Int32) { self.code = code }

    /// Names of the codes, from `MpStatus` in `mediapipe/tasks/python/core/mediapipe_c_utils.py`.
    static let names = [
        "ok", "cancelled", "unknown", "invalid argument", "deadline exceeded", "not found", "already exists",
        "permission denied", "resource exhausted", "failed precondition", "aborted", "out of range",
        "unimplemented", "internal", "unavailable", "data loss", "unauthenticated",
    ]

    /// The code's name and number, such as `invalid argument (3)`.
    public var description: String {
        let name = Self.names.indices.contains(Int(code)) ? Self.names[Int(code)] : "unrecognized status"
        return "\(name) (\(code))"
    }
}
