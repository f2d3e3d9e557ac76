import Foundation

/// Runs the `ffmpeg` command-line tool (installed by `scripts/setup`) to make test clips from the real data.
enum FFmpeg {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus) (run scripts/setup)")
        }
    }

    /// A 2-second, 30 fps H.264 clip of a still photo, optionally stored turned by `storedTurn`
    /// (an ffmpeg filter) and tagged with `rotation` so that it displays upright again.
    static func stillClip(of photo: URL, at url: URL, storedTurn: String? = nil, rotation: Int = 0) throws {
        let stored = rotation == 0 ? url : url.deletingLastPathComponent().appendingPathComponent("stored-\(url.lastPathComponent)")
        var filters = "scale=trunc(iw/2)*2:trunc(ih/2)*2"
        if let storedTurn { filters += "," + storedTurn }
        try run(["-loop", "1", "-framerate", "30", "-i", photo.path, "-t", "2", "-vf", filters, "-c:v", "libx264", "-pix_fmt", "yuv420p", stored.path])
        if rotation != 0 {
            // FFmpeg 5.1 writes the `rotate` tag as a display matrix when stream-copying into MP4.
            try run(["-i", stored.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotation)", url.path])
        }
    }
}
