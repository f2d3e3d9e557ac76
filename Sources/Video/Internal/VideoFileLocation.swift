/// The file an operation concerns, and the helper that turns ``FFmpegFailure`` into
/// ``VideoError``.
struct VideoFileLocation {
    /// The path as given by the caller.
    var path: String
    /// What FFmpeg logged during the current call on this file, added to every error.
    var log: FFmpegLogRecorder

    /// An error about this file found by FFmpeg.
    func error(_ kind: VideoError.Kind, _ failure: FFmpegFailure) -> VideoError {
        VideoError(kind: kind, filePath: path, ffmpegFunction: failure.function, ffmpegMessage: failure.message,
            ffmpegLog: log.lines)
    }

    /// An error about this file found by this module, explained by `message`.
    func error(_ kind: VideoError.Kind, message: String) -> VideoError {
        VideoError(kind: kind, filePath: path, ffmpegFunction: nil, ffmpegMessage: message, ffmpegLog: log.lines)
    }

    /// Runs `body`, reporting an ``FFmpegFailure`` as a ``VideoError`` of the kind `classify`
    /// picks for it (by default ``VideoError/Kind-swift.enum/libraryCall(function:)``).
    func perform<Result>(
        classifying classify: (FFmpegFailure) -> VideoError.Kind = { .libraryCall(function: $0.function) },
        _ body: () throws(FFmpegFailure) -> Result
    ) throws(VideoError) -> Result {
        do {
            return try body()
        } catch {
            throw self.error(classify(error), error)
        }
    }
}
