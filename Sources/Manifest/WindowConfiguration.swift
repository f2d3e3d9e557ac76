import Foundation
import ManifestSchema
import Pose

/// How pose sequences are cut into the fixed-length windows a model sees.
///
/// Follows Create ML's definition: window size (frames) = action duration (seconds) × frame
/// rate (frames per second).
public struct WindowConfiguration: Sendable, Hashable {
    /// What happens to a sequence shorter than one window.
    public enum Padding: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// Pad with zero frames, as Create ML pads frames without a detected person.
        case zero
        /// Leave the sequence out.
        case drop
    }

    /// How windows are taken from a sequence.
    public enum Sampling: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// Create ML's: windows of ``WindowConfiguration/size`` frames at the window frame rate,
        /// one every ``WindowConfiguration/stride`` frames (an action duration in seconds).
        case sliding
        /// One window per recording, the whole recording resampled to
        /// ``WindowConfiguration/size`` frames (PYSKL's `UniformSample`, deterministic): for
        /// datasets of segmented actions whose lengths vary (UTD-MHAD: 41 to 125 frames).
        case uniform
    }

    /// The most frames a window may have: 10,000 (5.5 minutes at 30 frames per second), far past
    /// any action, so that a mistyped size fails in the manifest, not in an allocation.
    public static let maximumSize = 10_000

    /// The frame rates a manifest may give (frames per second): above 0 and at most
    /// `PoseSequence.maximumFramesPerGap` (1,000,000), past which one second between two frames
    /// is more frames than resampling fills for any gap, so the rate is a typo, not a sensor.
    package static let frameRateBounds = NumericBounds(
        lower: .init(value: 0, isInclusive: false), upper: .init(value: Double(PoseSequence.maximumFramesPerGap), isInclusive: true))

    /// Create ML's default action duration, in seconds.
    public static let defaultActionDuration = 2.0
    /// How far a manifest's `duration × frameRate` may be from a whole number of frames.
    public static let frameTolerance = 0.01

    /// The number of frames in a window.
    public var size: Int
    /// The frame rate windows are built at, in frames per second.
    public var frameRate: Double
    /// The number of frames between the starts of consecutive windows; equal to ``size`` for
    /// non-overlapping windows.
    public var stride: Int
    /// What happens to a sequence shorter than one window.
    public var padding: Padding
    /// Sliding windows of an action duration, or one window per recording.
    public var sampling: Sampling

    /// Creates a window configuration; the stride defaults to the size (no overlap).
    public init(size: Int, frameRate: Double, stride: Int? = nil, padding: Padding = .zero, sampling: Sampling = .sliding) {
        self.size = size
        self.frameRate = frameRate
        self.stride = stride ?? size
        self.padding = padding
        self.sampling = sampling
    }

    /// The time a window spans, in seconds: ``size`` / ``frameRate``.
    public var actionDuration: Double { Double(size) / frameRate }
}
