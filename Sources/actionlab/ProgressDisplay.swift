import Dataset
import Foundation

/// Shows `actionlab extract`'s progress on standard error: a bar redrawn in place on a terminal
/// (videos done / total, frames per second, estimated time left), one plain line per video
/// otherwise (logs, CI).
final class ProgressDisplay {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var extractedSeconds = 0.0
    private var extractedVideos = 0
    private var framesDone = 0
    private var framesOfCurrent = 0
    private var currentStarted = Date()
    private var current = (index: 0, count: 0, name: "")

    /// Renders one event of the run.
    func handle(_ event: VideoExtractionRun.Event) {
        switch event {
        case let .started(index, count, file):
            current = (index, count, file.lastPathComponent)
            framesOfCurrent = 0
            currentStarted = Date()
            draw(force: true)
        case let .frames(count):
            framesOfCurrent = count
            draw(force: false)
        case let .finished(index, count, file, outcome):
            let prefix = "[\(index + 1)/\(count)] \(file.path): "
            switch outcome {
            case let .cacheHit(frames):
                if !isTerminal { Console.progress(prefix + "in the cache (\(frames) frames)") }
            case let .extracted(frames, seconds):
                extractedSeconds += seconds
                extractedVideos += 1
                framesDone += frames
                if !isTerminal {
                    Console.progress(prefix + "extracted \(frames) frames in \(String(format: "%.1f", seconds)) s "
                        + "(\(String(format: "%.1f", Double(frames) / max(seconds, 1e-9))) frames/s)")
                }
            case let .failed(message):
                clearLine()
                Console.progress("FAILED " + prefix + message)
            }
            framesOfCurrent = 0
            if index + 1 == count { clearLine() } else { draw(force: true) }
        }
    }

    /// Frames per second over everything extracted so far, including the current video.
    private var framesPerSecond: Double {
        let seconds = extractedSeconds + Date().timeIntervalSince(currentStarted)
        return seconds > 0 ? Double(framesDone + framesOfCurrent) / seconds : 0
    }

    private func draw(force: Bool) {
        guard isTerminal, force || Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let done = current.index
        let width = 24
        let filled = current.count == 0 ? 0 : width * done / current.count
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var eta = "ETA --:--"
        if extractedVideos > 0 {
            let remaining = Double(current.count - done) * extractedSeconds / Double(extractedVideos)
            eta = String(format: "ETA %d:%02d", Int(remaining) / 60, Int(remaining) % 60)
        }
        let line = "[\(bar)] \(done)/\(current.count) videos  \(String(format: "%.1f", framesPerSecond)) frames/s  \(eta)  \(current.name)"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    private func clearLine() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
