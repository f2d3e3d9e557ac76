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

    /// The side in pixels of the square tiles a quarter-turn copies at a time, so that the
    /// source rows a tile reads stay in the CPU cache (a quarter turn reads columns).
    private static let tileSize = 32

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
        // The source byte of displayed pixel (x, y) is origin + x * stepX + y * stepY (the
        // formulas above, expanded).
        let (origin, stepX, stepY): (Int, Int, Int) =
            switch degrees {
            case 0: (0, channels, rowStride)
            case 90: ((width - 1) * channels, rowStride, -channels)
            case 180: ((height - 1) * rowStride + (width - 1) * channels, -channels, -rowStride)
            default: ((height - 1) * rowStride, -rowStride, channels)
            }
        let pixels = [UInt8](unsafeUninitializedCapacity: outputWidth * outputHeight * channels) { buffer, count in
            guard let output = buffer.baseAddress else { return }
            let outputStride = outputWidth * channels
            if degrees == 0 {
                for y in 0..<height {
                    (output + y * outputStride).update(from: base + y * rowStride, count: outputStride)
                }
            } else {
                let tile = swaps ? Self.tileSize : max(outputWidth, 1)
                for tileY in stride(from: 0, to: outputHeight, by: tile) {
                    for tileX in stride(from: 0, to: outputWidth, by: tile) {
                        for y in tileY..<min(tileY + tile, outputHeight) {
                            var source = base + origin + tileX * stepX + y * stepY
                            var target = output + y * outputStride + tileX * channels
                            for _ in tileX..<min(tileX + tile, outputWidth) {
                                target[0] = source[0]
                                target[1] = source[1]
                                target[2] = source[2]
                                source += stepX
                                target += channels
                            }
                        }
                    }
                }
            }
            count = outputWidth * outputHeight * channels
        }
        return (outputWidth, outputHeight, pixels)
    }
}
