/// One decoded frame, upright, as 8-bit RGB pixels, with its time in the video.
public struct VideoFrame: Equatable, Sendable {
    /// Bytes per pixel in ``pixels``: red, green, blue.
    public static let bytesPerPixel = 3

    /// The time in seconds from the first displayed frame of the file (which is at 0).
    ///
    /// Presentation time (`best_effort_timestamp` × stream time base) minus the first displayed
    /// frame's, so start offsets and edit lists are honoured. Strictly increasing along a file.
    public var timestamp: Double
    /// The width in pixels, as displayed (after rotation and any downscaling).
    public var width: Int
    /// The height in pixels, as displayed (after rotation and any downscaling).
    public var height: Int
    /// RGB24 pixels, row by row from the top, left to right, with no padding:
    /// `width * height * 3` bytes, pixel (x, y) at `(y * width + x) * 3`.
    public var pixels: [UInt8]

    /// Creates a frame; `pixels` must hold `width * height * 3` bytes.
    public init(timestamp: Double, width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * VideoFrame.bytesPerPixel, "pixel buffer size does not match \(width)x\(height) RGB")
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The red, green and blue values of the pixel at column `x`, row `y` (row 0 at the top).
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let offset = (y * width + x) * VideoFrame.bytesPerPixel
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
