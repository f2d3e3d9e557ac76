import Foundation
import Video

/// Decodes every frame of `url`.
func decodeAll(_ url: URL, options: VideoDecodingOptions = VideoDecodingOptions()) throws -> (VideoDecoder, [VideoFrame]) {
    let decoder = try VideoDecoder(url: url, options: options)
    var frames: [VideoFrame] = []
    while let frame = try decoder.next() { frames.append(frame) }
    return (decoder, frames)
}

/// `frame` turned counterclockwise by `degrees` (0, 90, 180, 270), written independently of the
/// module's own rotation: it maps every source pixel to its destination.
func rotatedCounterclockwise(_ frame: VideoFrame, by degrees: Int) -> VideoFrame {
    let swaps = degrees % 180 != 0
    let width = swaps ? frame.height : frame.width
    let height = swaps ? frame.width : frame.height
    var pixels = [UInt8](repeating: 0, count: frame.pixels.count)
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            let (targetX, targetY): (Int, Int) =
                switch degrees {
                case 0: (x, y)
                case 90: (y, frame.width - 1 - x)  // the top-right corner goes to the top left
                case 180: (frame.width - 1 - x, frame.height - 1 - y)
                default: (frame.height - 1 - y, x)  // the top-left corner goes to the top right
                }
            let source = (y * frame.width + x) * 3
            let target = (targetY * width + targetX) * 3
            pixels[target..<target + 3] = frame.pixels[source..<source + 3]
        }
    }
    return VideoFrame(timestamp: frame.timestamp, width: width, height: height, pixels: pixels)
}

/// The mean absolute difference of two equally long byte buffers, in 8-bit levels.
func meanAbsoluteDifference<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Double {
    precondition(a.count == b.count, "buffers differ in length: \(a.count) and \(b.count)")
    let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(max(a.count, 1))
}
