import Dataset
import Foundation

/// Shows `actionlab extract`'s progress on standard error: a bar redrawn in place on a terminal
/// (videos done / total, frames per second, estimated time left, the videos in flight), one
/// plain line per finished video otherwise (logs, CI).
///
/// With several workers, videos finish out of order: each line names the video's position in
/// the list (`[3/8]`) and its path, and is written whole, so lines never mix.
final class ProgressDisplay {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var total = 0
    private var done = 0
    /// Frames estimated by finished extractions.
    private var framesDone = 0
    /// Videos extracted (not cache hits); the time left is estimated once there is one.
    private var extractedVideos = 0
    /// Videos in flight: their names and frames estimated so far, by index.
    private var inFlight: [Int: (name: String, frames: Int)] = [:]

    /// Renders one event of the run.
    func handle(_ event: VideoExtractionRun.Event) {
        switch event {
        case let .started(index, count, file):
            total = count
            inFlight[index] = (file.lastPathComponent, 0)
            draw(force: true)
        case let .frames(index, frames):
            inFlight[index]?.frames = frames
            draw(force: false)
        case let .finished(index, count, file, outcome):
            inFlight[index] = nil
            done += 1
            let prefix = "[\(index + 1)/\(count)] \(file.path): "
            switch outcome {
            case let .cacheHit(frames):
                if !isTerminal { Console.progress(prefix + "in the cache (\(frames) frames)") }
            case let .extracted(frames, seconds):
                extractedVideos += 1
                framesDone += frames
                if !isTerminal {
                    Console.progress(prefix + "extracted \(frames) frame\(frames == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s "
                        + "(\(String(format: "%.1f", Double(frames) / max(seconds, 1e-9))) frames/s)")
                }
            case let .failed(message):
                clearLine()
                // Errors name their file first, as the prefix does already.
                let reason = message.hasPrefix(file.path + ": ") ? String(message.dropFirst(file.path.count + 2)) : message
                Console.progress("FAILED " + prefix + reason)
            }
            if done == count { clearLine() } else { draw(force: true) }
        }
    }

    /// Frames per second of the whole run so far (all workers together), in-flight videos included.
    private var framesPerSecond: Double {
        let seconds = Date().timeIntervalSince(started)
        let frames = framesDone + inFlight.values.reduce(0) { $0 + $1.frames }
        return seconds > 0 ? Double(frames) / seconds : 0
    }

    private func draw(force: Bool) {
        guard isTerminal, force || Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let width = 24
        let filled = total == 0 ? 0 : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var eta = "ETA --:--"
        if extractedVideos > 0 {
            let remaining = Double(total - done) * Date().timeIntervalSince(started) / Double(done)
            eta = String(format: "ETA %d:%02d", Int(remaining) / 60, Int(remaining) % 60)
        }
        let names = inFlight.keys.sorted().compactMap { inFlight[$0]?.name }.joined(separator: ", ")
        let line = "[\(bar)] \(done)/\(total) videos  \(String(format: "%.1f", framesPerSecond)) frames/s  \(eta)  \(names)"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    private func clearLine() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
