import Foundation
import Reports

/// Ends a sweep's worker processes when the `actionlab run` that started them ends, however it
/// ends (Ctrl-C, `kill -9`): otherwise they would go on training, orphaned, and a resumed run
/// would train their trials a second time beside them.
///
/// The parent holds the write end of a pipe per worker (close-on-exec, so no other worker
/// inherits it) and gives the worker the read end as standard input, with ``environmentKey`` set. A worker
/// watches its standard input on a thread of its own; the kernel closes the write end when the
/// parent exits, the worker reads end-of-file and exits at once. That is a kill -9 as far as the
/// sweep is concerned: the next `actionlab run` adopts the unfinished trials' checkpoints.
/// `actionlab trial` started any other way (a cluster scheduler) does not watch.
public enum WorkerLifeline {
    /// Set to `"stdin"` in a worker's environment by the parent.
    public static let environmentKey = "ACTIONLAB_SWEEP_LIFELINE"

    /// The parent's side: one pipe per worker (Foundation closes the parent's copy of a child's
    /// standard-input read end once the child has started), open for as long as this value lives.
    final class Parent {
        private var pipes: [Pipe] = []

        /// Gives `process` the read end of a new pipe as standard input and sets
        /// ``environmentKey``; the write end stays in this process only (close-on-exec, so that
        /// later workers do not inherit it and keep it open).
        /// - Throws: ``ReportError/writeFailed(path:reason:)`` if `fcntl` fails.
        func attach(to process: Process) throws {
            let pipe = Pipe()
            let descriptor = pipe.fileHandleForWriting.fileDescriptor
            let flags = fcntl(descriptor, F_GETFD)
            guard flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                throw ReportError.writeFailed(path: "worker pipe", reason: String(cString: strerror(errno)))
            }
            pipes.append(pipe)
            process.standardInput = pipe
            process.environment = (process.environment ?? ProcessInfo.processInfo.environment)
                .merging([WorkerLifeline.environmentKey: "stdin"]) { $1 }
        }
    }

    /// In a worker (``environmentKey`` set), starts a thread that exits the process when
    /// standard input reaches end-of-file; does nothing otherwise.
    ///
    /// - Parameter log: Where to say why the worker stops (called on the watching thread).
    public static func watchParentIfWorker(log: @escaping @Sendable (String) -> Void) {
        guard ProcessInfo.processInfo.environment[environmentKey] == "stdin" else { return }
        let watcher = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            log("the actionlab run that started this worker has ended; stopping (unfinished trials resume on the next run)")
            _exit(1)
        }
        watcher.name = "sweep-lifeline"
        watcher.start()
    }
}
