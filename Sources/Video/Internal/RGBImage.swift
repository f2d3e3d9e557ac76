/// A read-only view of packed RGB24 pixels with a row stride, as libswscale writes them.
struct RGBImage {
    /// The first byte of the top row.
    var base: UnsafePointer<UInt8>
    /// Bytes from one row to the next (at least `width * 3`; FFmpeg pads rows for alignment).
    var rowStride: Int
    /// The width in pixels.
    var width: Int
    /// The height in pixels.
    var height: Int

    /// The pixels turned counterclockwise by `degrees` (0, 90, 180 or 270), packed without
    /// padding.
    ///
    /// Turning counterclockwise by 90° moves the top-right corner to the top left: displayed pixel
    /// (x, y) is stored pixel (width − 1 − y, x). By 270° (90° clockwise) it is stored pixel
    /// (y, height − 1 − x); by 180° it is (width − 1 − x, height − 1 − y).
    /// - Returns: the displayed width and height in pixels and their packed RGB24 bytes.
    func rotatedCounterclockwise(by degrees: Int) -> (width: Int, height: Int, pixels: [UInt8]) {
        precondition([0, 90, 180, 270].contains(degrees), "rotation \(degrees)° is not a quarter turn")
        let channels = VideoFrame.bytesPerPixel
        let swaps = degrees == 90 || degrees == 270
        let outputWidth = swaps ? height : width
        let outputHeight = swaps ? width : height
        let pixels = [UInt8](unsafeUninitializedCapacity: outputWidth * outputHeight * channels) { buffer, count in
            guard let output = buffer.baseAddress else { return }
            if degrees == 0 {
                let rowBytes = width * channels
                for y in 0..<height {
                    (output + y * rowBytes).update(from: base + y * rowStride, count: rowBytes)
                }
            } else {
                for y in 0..<outputHeight {
                    let outputRow = output + y * outputWidth * channels
                    for x in 0..<outputWidth {
                        let (sourceX, sourceY): (Int, Int) =
                            switch degrees {
                            case 90: (width - 1 - y, x)
                            case 180: (width - 1 - x, height - 1 - y)
                            default: (y, height - 1 - x)
                            }
                        let source = base + sourceY * rowStride + sourceX * channels
                        let target = outputRow + x * channels
                        target[0] = source[0]
                        target[1] = source[1]
                        target[2] = source[2]
                    }
                }
            }
            count = outputWidth * outputHeight * channels
        }
        return (outputWidth, outputHeight, pixels)
    }
}
