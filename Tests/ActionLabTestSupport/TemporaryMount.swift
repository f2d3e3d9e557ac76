import Foundation

/// A small tmpfs mounted on a fresh folder for the life of the value, for tests of a full or
/// read-only file system; unmounted (lazily) when the value is deinitialized.
///
/// Mounting needs root, as CI has (Debian 12); elsewhere ``init(sizeKiB:)`` throws
/// ``Unavailable`` with the reason, for the test to skip with (`Test.cancel`).
public final class TemporaryMount: Sendable {
    /// Why no file system could be mounted.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mount point.
    public let url: URL
    private let folder: TemporaryDirectory

    /// Mounts a tmpfs of `sizeKiB` KiB.
    /// - Throws: ``Unavailable`` with `mount`'s message if it fails (not root, no tmpfs).
    public init(sizeKiB: Int) throws {
        folder = try TemporaryDirectory(prefix: "actionlab-mount")
        url = folder.url
        let result = try Self.mount(["-t", "tmpfs", "-o", "size=\(sizeKiB)k", "tmpfs", url.path])
        guard result.status == 0 else {
            throw Unavailable(description: "cannot mount a tmpfs (root is needed; CI runs as root): \(result.message)")
        }
    }

    /// Fills the file system until fewer than `leftKiB` KiB are free, with one file.
    public func fill(leavingKiB leftKiB: Int) throws {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { throw Unavailable(description: "statvfs failed") }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        try Data(count: max(0, free - leftKiB * 1_024)).write(to: url.appendingPathComponent("filler"))
    }

    /// Makes the file system read-only (`mount -o remount,ro`).
    public func makeReadOnly() throws {
        let result = try Self.mount(["-o", "remount,ro", url.path])
        guard result.status == 0 else { throw Unavailable(description: "cannot remount read-only: \(result.message)") }
    }

    private static func mount(_ arguments: [String]) throws -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = ["-l", url.path]
        if (try? process.run()) != nil { process.waitUntilExit() }
    }
}
