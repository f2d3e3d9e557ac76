import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Keeps MediaPipe's chatter off standard error while letting its real errors through.
///
/// libmediapipe.so logs through absl, glog-style `W0000 ...` lines and TensorFlow Lite's (LiteRT's)
/// own logger, all written straight to file descriptor 2, and none of them honours
/// `GLOG_minloglevel` or `TF_CPP_MIN_LOG_LEVEL` in this build: creating one pose landmarker
/// prints about 45 lines (38 × `WARNING: [model_load.cc:402] Sparsity tensors may not yet be fully
/// supported.`), closing it a few more. ``capturing(_:)`` runs a call with file descriptor 2
/// pointed at an unlinked temporary file, then writes every line of it that ``isChatter(_:)``
/// does not recognize to the real standard error. MediaPipe's errors (`ERROR: The model is not a
/// valid Flatbuffer buffer`, `E0000 ...` lines) and anything else written meanwhile, by any
/// thread, arrive unchanged, a little later.
///
/// Set ``environmentVariable`` (`ACTIONLAB_MEDIAPIPE_LOG=all`) to see everything.
///
/// The estimator captures the calls that chatter: creating and closing a landmarker, its first
/// detection, and every detection until the process's first frame with a person. Captures are serialized by one process-wide lock, as file descriptor 2 is process-wide.
public enum MediaPipeLogFilter {
    /// The environment variable that, set to `all`, turns the filter off.
    public static let environmentVariable = "ACTIONLAB_MEDIAPIPE_LOG"

    /// Text of the informational and warning lines MediaPipe 1.2.3 prints on every run, which say
    /// nothing about the user's input.
    static let chatter = [
        "Sparsity tensors may not yet be fully supported",
        "Logging before InitGoogle() is written to STDERR",
        "All log messages before absl::InitializeLog() is called are written to STDERR",
        "Using NORM_RECT without IMAGE_DIMENSIONS is only supported for the square ROI",
        "Input tensor memory is not aligned according to LiteRt's memory alignment requirements",
    ]

    /// Whether `line` (without its line end) is MediaPipe chatter: an empty line, an `INFO: `
    /// line (LiteRT), an absl/glog informational line (`I` + `MMDD` or `0000` + time), or one of
    /// the known warnings above. Errors and unknown warnings are not chatter.
    public static func isChatter(_ line: some StringProtocol) -> Bool {
        if line.allSatisfy(\.isWhitespace) || line.hasPrefix("INFO: ") { return true }
        let characters = Array(line.prefix(6))
        if characters.count == 6, characters[0] == "I", characters[1...4].allSatisfy(\.isNumber), characters[5] == " " { return true }
        return chatter.contains { line.contains($0) }
    }

    /// The lines of `text` that are not chatter, each with its line end.
    public static func filtered(_ text: String) -> String {
        text.components(separatedBy: "\n").dropLast(text.hasSuffix("\n") ? 1 : 0)
            .filter { !isChatter($0) }.map { $0 + "\n" }.joined()
    }

    private static let lock = NSLock()

    /// Runs `body` with standard error captured and passes what was written, less chatter, to
    /// the real standard error when it returns (or throws).
    ///
    /// When the capture cannot be set up (no temporary file), `body` runs uncaptured.
    /// - Parameter body: The MediaPipe call; it must not call ``capturing(_:)`` itself.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    static func capturing<Result>(_ body: () throws -> Result) rethrows -> Result {
        if ProcessInfo.processInfo.environment[environmentVariable] == "all" { return try body() }
        lock.lock()
        defer { lock.unlock() }
        fflush(nil)  // every stream: `stderr` itself is not concurrency-safe to name
        guard let file = tmpfile() else { return try body() }
        defer { fclose(file) }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0 else { return try body() }
        defer { close(saved) }
        guard dup2(fileno(file), STDERR_FILENO) >= 0 else { return try body() }
        defer {
            fflush(nil)  // every stream: `stderr` itself is not concurrency-safe to name
            dup2(saved, STDERR_FILENO)
            let text = filtered(String(decoding: contents(of: fileno(file)), as: UTF8.self))
            if !text.isEmpty {
                let bytes = Array(text.utf8)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
        }
        return try body()
    }

    /// Everything written to the file `descriptor` so far, read from its start.
    private static func contents(of descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            offset += off_t(count)
        }
        return bytes
    }
}
