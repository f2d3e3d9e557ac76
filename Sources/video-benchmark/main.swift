// Decoding throughput of ActionLab's Video module, for scripts/bench-decode.
//
//   video-benchmark FILE...
//
// For every file, decodes it completely in several configurations and prints one Markdown table
// row per configuration: frames, wall-clock seconds and frames per second (best of 3 runs), and
// the process's CPU milliseconds per frame (all threads; less sensitive to other load on the
// machine than wall-clock time).
//
// The "+ 5 ms work" rows stand in for pose estimation: the reading thread spins for 5 ms of CPU
// per frame, either after decoding each frame itself (sequential) or while a FramePipeline
// decodes the next ones (pipelined). With decoding hidden, pipelined time approaches 5 ms per frame.
import Foundation
import Video

/// One way of decoding a file.
struct Configuration {
    var name: String
    var options: VideoDecodingOptions
    var pipelined: Bool
    /// CPU seconds of simulated work per frame on the reading thread.
    var work: Double = 0
}

let configurations = [
    Configuration(name: "full size, FFmpeg threads auto", options: VideoDecodingOptions(), pipelined: false),
    Configuration(name: "full size, 1 FFmpeg thread", options: VideoDecodingOptions(decoderThreadCount: 1), pipelined: false),
    Configuration(
        name: "max 256 px, 1 FFmpeg thread", options: VideoDecodingOptions(maximumDimension: 256, decoderThreadCount: 1),
        pipelined: false),
    Configuration(
        name: "max 256 px, 1 FFmpeg thread, FramePipeline",
        options: VideoDecodingOptions(maximumDimension: 256, decoderThreadCount: 1), pipelined: true),
    Configuration(
        name: "max 256 px, 1 FFmpeg thread, + 5 ms work, sequential",
        options: VideoDecodingOptions(maximumDimension: 256, decoderThreadCount: 1), pipelined: false, work: 0.005),
    Configuration(
        name: "max 256 px, 1 FFmpeg thread, + 5 ms work, FramePipeline",
        options: VideoDecodingOptions(maximumDimension: 256, decoderThreadCount: 1), pipelined: true, work: 0.005),
]

/// CPU seconds used by the calling thread so far.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU seconds used by the whole process (every thread) so far.
func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Spins for `seconds` of this thread's CPU time, as a stand-in for pose estimation.
func work(_ seconds: Double) {
    guard seconds > 0 else { return }
    let end = threadCPUTime() + seconds
    while threadCPUTime() < end {}
}

/// Decodes every frame of `url` and returns the frame count.
func decode(_ url: URL, _ configuration: Configuration) throws -> Int {
    var count = 0
    if configuration.pipelined {
        let pipeline = FramePipeline(url: url, options: configuration.options, capacity: 8)
        while try pipeline.next() != nil {
            work(configuration.work)
            count += 1
        }
    } else {
        let decoder = try VideoDecoder(url: url, options: configuration.options)
        while try decoder.next() != nil {
            work(configuration.work)
            count += 1
        }
    }
    return count
}

let paths = CommandLine.arguments.dropFirst()
guard !paths.isEmpty else {
    FileHandle.standardError.write(Data("usage: video-benchmark FILE...\n".utf8))
    exit(2)
}
print("| file | size | configuration | frames | seconds | frames/s | CPU ms/frame |")
print("|---|---|---|---:|---:|---:|---:|")
do {
    for path in paths {
        let url = URL(fileURLWithPath: path)
        let info = try VideoDecoder(url: url).info
        let size = "\(info.storedWidth)x\(info.storedHeight)" + (info.rotation == 0 ? "" : ", rotation \(info.rotation)")
        for configuration in configurations {
            var best = Double.infinity
            var bestCPU = Double.infinity
            var frames = 0
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                let startCPU = processCPUTime()
                frames = try decode(url, configuration)
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                bestCPU = min(bestCPU, processCPUTime() - startCPU)
            }
            let columns = [
                url.lastPathComponent, size, configuration.name, "\(frames)", String(format: "%.3f", best),
                String(format: "%.0f", Double(frames) / best), String(format: "%.2f", 1000 * bestCPU / Double(frames)),
            ]
            print("| " + columns.joined(separator: " | ") + " |")
        }
    }
} catch {
    FileHandle.standardError.write(Data("video-benchmark: \(error)\n".utf8))
    exit(1)
}
