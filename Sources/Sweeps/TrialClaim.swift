import Foundation
import Reports

/// The right to train one trial of a sweep folder, held by one process at a time: an exclusive
/// `flock(2)` on `claims/<trial id>.lock` in the sweep folder.
///
/// The kernel releases the lock when its holder closes the file or ends, however it ends
/// (`kill -9`, the out-of-memory killer), so a claim never outlives the process that trains, and
/// no process id or time-out has to be trusted. Lock files stay in place (an empty file each):
/// removing one while another process waits on it would let two processes hold "the" lock.
/// Processes on other machines see the claims on a shared file system whose `flock` is
/// honoured across clients (NFS since Linux 2.6.12 maps it to byte-range locks).
public final class TrialClaim {
    /// The folder of lock files inside a sweep folder.
    public static let folderName = "claims"

    /// The trial claimed.
    public let trialID: String
    private var descriptor: Int32

    private init(trialID: String, descriptor: Int32) {
        self.trialID = trialID
        self.descriptor = descriptor
    }

    deinit { release() }

    /// The lock file of `trial` in `sweepFolder`.
    public static func lockFile(of trial: Trial, in sweepFolder: URL) -> URL {
        sweepFolder.appendingPathComponent(folderName).appendingPathComponent("\(trial.id).lock")
    }

    /// Claims `trial` unless another process holds it.
    /// - Returns: The claim, or nil when another process (or another claim in this process) holds it.
    /// - Throws: ``ReportError/writeFailed(path:reason:)`` if the lock file cannot be created or locked.
    public static func claimIfFree(_ trial: Trial, in sweepFolder: URL) throws -> TrialClaim? {
        try acquire(trial, in: sweepFolder, waiting: false)
    }

    /// Claims `trial`, waiting for as long as another process holds it (until it finishes the
    /// trial or ends).
    /// - Throws: ``ReportError/writeFailed(path:reason:)`` if the lock file cannot be created or locked.
    public static func claim(_ trial: Trial, in sweepFolder: URL) throws -> TrialClaim {
        guard let claim = try acquire(trial, in: sweepFolder, waiting: true) else {
            throw ReportError.writeFailed(path: lockFile(of: trial, in: sweepFolder).path, reason: "the lock was not granted")
        }
        return claim
    }

    /// Whether a process (this one included) holds the claim on `trial` now, without taking it
    /// or creating anything: a shared `flock` on its lock file is refused while an exclusive one
    /// is held. False when there is no lock file or it cannot be opened.
    public static func isHeld(_ trial: Trial, in sweepFolder: URL) -> Bool {
        let descriptor = open(lockFile(of: trial, in: sweepFolder).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK
        }
        return false
    }

    /// Gives the trial up (idempotent; also done when the claim is released from memory).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)  // closing the only descriptor of the open file releases its flock
        descriptor = -1
    }

    private static func acquire(_ trial: Trial, in sweepFolder: URL, waiting: Bool) throws -> TrialClaim? {
        let url = lockFile(of: trial, in: sweepFolder)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ReportError.writeFailed(path: url.deletingLastPathComponent().path, reason: ReportError.reason(error))
        }
        // Close-on-exec: a worker process started while this claim is held must not inherit it.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ReportError.writeFailed(path: url.path, reason: "cannot open the trial's lock file: \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw ReportError.writeFailed(path: url.path, reason: "cannot lock the trial's lock file: \(String(cString: strerror(code)))")
        }
        return TrialClaim(trialID: trial.id, descriptor: descriptor)
    }
}
