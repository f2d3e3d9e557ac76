import Foundation
import Pose
import Testing

/// Decodes a still picture (JPEG, PNG) into an ``RGBImage`` with the `ffmpeg` command, which
/// `scripts/setup` installs, so that pose tests do not depend on ActionLab's own video decoder.
enum StillImageDecoder {
    /// The picture at `url` as packed RGB.
    /// - Throws: When ffmpeg is missing or fails (the test fails with its message), or its output
    ///   is not the binary PPM it was asked for.
    static func decode(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> RGBImage {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-i", url.path, "-frames:v", "1", "-f", "image2pipe", "-c:v", "ppm", "-"]
        let output = Pipe(), errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errorOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0,
            "ffmpeg could not decode \(url.path) (status \(process.terminationStatus)): \(errorText) (run scripts/setup to install ffmpeg)",
            sourceLocation: sourceLocation)
        return try parsePPM(Array(data), sourceLocation: sourceLocation)
    }

    /// Parses a binary PPM (`P6`, maximum value 255): four whitespace-separated header fields,
    /// one whitespace byte, then the pixels.
    static func parsePPM(_ bytes: [UInt8], sourceLocation: SourceLocation) throws -> RGBImage {
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n") { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\n") { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1  // the single whitespace byte before the pixels
        try #require(fields.count == 4 && fields[0] == "P6" && fields[3] == "255", "not an 8-bit binary PPM: \(fields)",
                     sourceLocation: sourceLocation)
        let width = try #require(Int(fields[1]), sourceLocation: sourceLocation)
        let height = try #require(Int(fields[2]), sourceLocation: sourceLocation)
        return try RGBImage(width: width, height: height, pixels: Array(bytes[min(index, bytes.count)...]))
    }
}
