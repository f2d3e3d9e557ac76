internal import CFFmpeg
import Foundation

/// A named pipe (FIFO) opened for reading without blocking, handed to FFmpeg as `pipe:N`: the
/// owner of the file descriptor.
///
/// FFmpeg's `file` protocol would open a FIFO with a blocking `open` and `read`, which wait for
/// a writer and for data with no way to give up, so a stalled writer could neither be reported
/// nor closed. Opened with `O_NONBLOCK`, `open` returns at once; ``waitForWriter(interrupt:)``
/// then waits, in short `poll` slices, until a writer has written (or come and gone); after
/// that FFmpeg's `pipe` protocol retries a `read` that would block (`EAGAIN`) every millisecond
/// and consults the interrupt callback between tries, and a `read` of 0 bytes — every writer
/// has closed the pipe — is the end of the stream.
final class NamedPipeInput {
    /// The descriptor, open for reading, non-blocking.
    let descriptor: Int32

    /// The URL that makes FFmpeg read ``descriptor`` (its `pipe` protocol, which never closes it).
    var url: String { "pipe:\(descriptor)" }

    /// Whether `path` names an existing named pipe.
    static func isNamedPipe(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// Opens the named pipe at `path` for reading without waiting for a writer.
    /// - Throws: ``FFmpegFailure`` for `open`, with `errno` as an `AVERROR` code.
    init(path: String) throws(FFmpegFailure) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FFmpegFailure(function: "open", code: cffmpeg_averror_from_errno(errno)) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Waits until a writer has written to the pipe or has closed it, checking `interrupt`
    /// every 50 ms.
    /// - Returns: false when `interrupt` stopped the wait.
    func waitForWriter(interrupt: IOInterrupt) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !interrupt.shouldInterrupt() {
            // Before any writer has opened the pipe, poll reports nothing (not even POLLHUP).
            if poll(&entry, 1, 50) > 0 { return true }
        }
        return false
    }
}
