import _BenchmarkSupport
import Foundation
import Pose

/// `pose-benchmark`: ActionLab's pose-only rate, the Swift half of `scripts/bench-pose`.
///
/// Reads K frames of packed 8-bit RGB (K * W * H * 3 bytes, as `ffmpeg -f rawvideo -pix_fmt rgb24`
/// writes them) into memory, creates a ``MediaPipePoseEstimator``, then times
/// ``PoseEstimator/estimatePeople(in:at:)`` over every frame, frame i at i / frame rate seconds.
/// Prints `{"frames", "seconds", "framesPerSecond", "framesWithPerson"}` as JSON, the same fields
/// as `scripts/pose/mediapipe_reference.py --benchmark` prints for MediaPipe's Python API.
/// Exit status 1 on an error (printed to standard error), 2 for wrong usage.
let usage = """
    usage: pose-benchmark --pixels FILE --width W --height H [--frame-rate FPS] [--mode video|image]
                          [--num-poses N] [--model PATH]
    """

func run() throws -> Int32 {
    let options = try benchmarkOptions(CommandLine.arguments.dropFirst())
    guard let pixelsPath = options["pixels"] else { throw BenchmarkUsageError(description: "missing --pixels") }
    let width = try positiveInteger(options, "width"), height = try positiveInteger(options, "height")
    guard let frameRate = Double(options["frame-rate"] ?? "30"), frameRate > 0, frameRate.isFinite else {
        throw BenchmarkUsageError(description: "--frame-rate must be a positive number")
    }
    guard let mode = MediaPipePoseEstimator.Options.RunningMode(rawValue: options["mode"] ?? "video") else {
        throw BenchmarkUsageError(description: "--mode must be video or image")
    }

    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pixelsPath)))
    let frameByteCount = width * height * RGBImage.channelCount
    guard !bytes.isEmpty, bytes.count % frameByteCount == 0 else {
        throw BenchmarkUsageError(description: "\(pixelsPath) holds \(bytes.count) bytes, not a whole number of \(width)x\(height) RGB frames")
    }
    let frames = try stride(from: 0, to: bytes.count, by: frameByteCount).map {
        try RGBImage(width: width, height: height, pixels: Array(bytes[$0..<($0 + frameByteCount)]))
    }

    let estimator = try MediaPipePoseEstimator(
        options: .init(modelPath: options["model"], runningMode: mode, numberOfPoses: try positiveInteger(options, "num-poses", default: 1)))
    var framesWithPerson = 0
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
        for (index, frame) in frames.enumerated() where try !estimator.estimatePeople(in: frame, at: Double(index) / frameRate).isEmpty {
            framesWithPerson += 1
        }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let report: [String: Any] = [
        "frames": frames.count, "seconds": seconds, "framesPerSecond": Double(frames.count) / seconds,
        "framesWithPerson": framesWithPerson,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    return 0
}

do {
    exit(try run())
} catch let error as BenchmarkUsageError {
    FileHandle.standardError.write(Data("pose-benchmark: \(error)\n\(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("pose-benchmark: \(error)\n".utf8))
    exit(1)
}
