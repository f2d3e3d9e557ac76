import Foundation
import ManifestSchema

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

    /// Creates a window configuration; the stride defaults to the size (no overlap).
    public init(size: Int, frameRate: Double, stride: Int? = nil, padding: Padding = .zero) {
        self.size = size
        self.frameRate = frameRate
        self.stride = stride ?? size
        self.padding = padding
    }

    /// The time a window spans, in seconds: ``size`` / ``frameRate``.
    public var actionDuration: Double { Double(size) / frameRate }
}
