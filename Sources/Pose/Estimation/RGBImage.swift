/// An 8-bit RGB picture, one frame handed to a pose estimator.
///
/// Pixels are stored row by row from the top row down, each pixel as three bytes red, green, blue,
/// with no padding between rows: `pixels.count == width * height * 3`. The picture is the frame as
/// displayed (any rotation already applied), so that normalized keypoint coordinates refer to the
/// displayed width and height.
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `[height, width, 3]` bytes, row-major, top row first.
    public let pixels: [UInt8]

    /// Bytes per pixel: red, green, blue.
    public static let channelCount = 3

    /// Creates a picture from packed RGB bytes.
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - pixels: `width * height * 3` bytes, row-major from the top row, R, G, B per pixel.
    /// - Throws: ``PoseEstimationError/invalidImage(reason:)`` when a size is not positive or the
    ///   byte count does not match it.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0 else {
            throw PoseEstimationError.invalidImage(reason: "size \(width)x\(height) is empty")
        }
        let (expected, overflow) = width.multipliedReportingOverflow(by: height * Self.channelCount)
        guard !overflow, expected <= Int(Int32.max) else {
            throw PoseEstimationError.invalidImage(reason: "size \(width)x\(height) is too large")
        }
        guard pixels.count == expected else {
            throw PoseEstimationError.invalidImage(
                reason: "\(width)x\(height) RGB needs \(expected) bytes, found \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
