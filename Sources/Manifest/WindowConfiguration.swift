import Foundation
import ManifestSchema

/// How pose sequences are cut into the fixed-length windows a model sees.
///
/// Follows Create ML's definition: window size (frames) = action duration (seconds) × frame
/// rate (frames per second).
public struct WindowConfiguration: Sendable, Hashable, Codable {
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

extension WindowConfiguration {
    init(reading object: ManifestObjectReader, defaultFrameRate: Double) {
        var frameRate = defaultFrameRate
        object.read("frameRate", into: &frameRate) { $0.double(.positive) }
        let durationNode = object.member("duration")
        let duration = durationNode?.double(.positive)
        let sizeNode = object.member("size")
        let statedSize = sizeNode?.integer(.atLeast(1))
        let defaultSize = max(1, Int((Self.defaultActionDuration * frameRate).rounded()))
        self.init(size: defaultSize, frameRate: frameRate)

        let rate = frameRate.manifestText
        switch (durationNode, duration, sizeNode, statedSize) {
        case let (_, duration?, sizeNode?, statedSize?):
            let frames = duration * frameRate
            size = statedSize
            if abs(frames - Double(statedSize)) > Self.frameTolerance {
                sizeNode.report(
                    "contradictory values: \(object.path("size")) is \(statedSize) frames, but \(object.path("duration")) "
                        + "\(duration.manifestText) s at \(rate) frames per second is \(frames.manifestText) frames")
            }
        case let (durationNode?, duration?, nil, _):
            let frames = duration * frameRate
            let rounded = frames.rounded()
            if rounded < 1 {
                durationNode.report("value out of range: \(duration.manifestText) s at \(rate) frames per second is less than one frame")
            } else if abs(frames - rounded) > Self.frameTolerance {
                durationNode.report(
                    "value out of range: \(duration.manifestText) s at \(rate) frames per second is \(frames.manifestText) frames, "
                        + "not a whole number; state \(object.path("size")) in frames instead")
            } else {
                size = Int(rounded)
            }
        case let (_, _, _, statedSize?):
            size = statedSize
        default:
            break  // Neither stated, or a stated one is invalid and already reported.
        }
        stride = size
        object.read("stride", into: &stride) { $0.integer(.atLeast(1)) }
        object.read("padding", into: &padding) { $0.choice(Padding.self) }
    }
}
