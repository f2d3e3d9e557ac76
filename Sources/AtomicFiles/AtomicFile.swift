import Foundation

/// Writes files so that a reader, or a process killed half-way, sees either the old file or the
/// complete new one, never part of it.
///
/// The content goes to a uniquely named temporary file in the destination's folder, is flushed
/// to disk with `fsync(2)`, and the file is renamed over the destination with `rename(2)`, which
/// POSIX makes atomic within one file system; the folder is then synced so the rename survives a
/// power cut. Every module that writes output (feature cache, checkpoints, reports) goes through
/// this type. Inside ``withDeferredSync(flushing:_:)`` the flushes wait for one `syncfs(2)` at
/// its end.
public enum AtomicFile {
    /// Replaces `destination` with the file that `write` creates at the temporary URL it is given.
    ///
    /// - Parameters:
    ///   - destination: The file to create or replace. Its folder must exist.
    ///   - temporary: Where `write` should create the new file; must be in the destination's
    ///     folder. Default: ``temporaryURL(for:)``.
    ///   - syncing: Whether to `fsync` the file before the rename and its folder after it. Pass
    ///     false only when the caller flushes the file system later
    ///     (``syncFileSystem(containing:)``) and a reader checks what it reads (a checksum), since
    ///     after a power cut before that flush the renamed file may hold fewer bytes than written.
    ///   - write: Creates the complete file at its argument.
    /// - Throws: What `write` throws, or ``AtomicFileError`` if syncing or renaming fails, or
    ///   when `destination` is there but not a regular file (a folder, a device such as
    ///   `/dev/full`, a named pipe, a socket), which the rename would replace. A symbolic link is
    ///   followed: the file it points to is replaced, the link kept. The temporary file is
    ///   removed on any failure.
    public static func replace(
        _ destination: URL, temporary: URL? = nil, syncing: Bool = true, write: (URL) throws -> Void
    ) throws {
        let destination = try regularFileTarget(of: destination)
        let temporary = temporary ?? temporaryURL(for: destination)
        let syncing = syncing && !syncIsDeferred
        do {
            try write(temporary)
            if syncing { try sync(path: temporary.path, directory: false) }
            guard rename(temporary.path, destination.path) == 0 else {
                throw AtomicFileError(path: destination.path, operation: "rename", reason: lastErrorText())
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        // The new file is complete and in place; making the rename durable is best effort.
        if syncing { try? sync(path: destination.deletingLastPathComponent().path, directory: true) }
    }

    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    /// - Parameters:
    ///   - data: The file's complete contents.
    ///   - url: The file to create or replace.
    ///   - temporary: Where to write before the rename, in `url`'s folder; default
    ///     ``temporaryURL(for:)``.
    ///   - syncing: As for ``replace(_:temporary:syncing:write:)``.
    /// - Throws: ``AtomicFileError`` naming the file and the system's reason.
    public static func write(_ data: Data, to url: URL, temporary: URL? = nil, syncing: Bool = true) throws {
        let folder = url.deletingLastPathComponent()
        // One `mkdir` when the folder exists (the usual case); Foundation for missing parents.
        if mkdir(folder.path, 0o777) != 0 && errno != EEXIST {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw AtomicFileError(path: folder.path, operation: "create folder", reason: FileErrorReason.of(error))
            }
        }
        try replace(url, temporary: temporary, syncing: syncing) { temporary in
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard descriptor >= 0 else {
                // Named by the file asked for: the temporary name is ours, not the user's.
                throw AtomicFileError(path: url.path, operation: "create", reason: lastErrorText())
            }
            defer { close(descriptor) }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw AtomicFileError(path: temporary.path, operation: "write", reason: lastErrorText())
                    }
                    offset += written
                }
            }
        }
    }

    /// Writes `text` as UTF-8 to `url` atomically.
    /// - Throws: ``AtomicFileError``.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Encodes `value` as pretty-printed JSON with sorted keys (equal values give equal bytes)
    /// and a final newline, and writes it to `url` atomically.
    /// - Throws: ``AtomicFileError`` if encoding or writing fails.
    public static func writeJSON<Value: Encodable>(_ value: Value, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw AtomicFileError(path: url.path, operation: "encode JSON", reason: "\(error)")
        }
        try write(data + Data([0x0A]), to: url)
    }

    /// A name beside `url` that no other writer uses: `.<name>.tmp-<pid>-<uuid>`, with `<name>`
    /// cut to its first 180 bytes, so that a name the file system takes (up to 255 bytes) gets a
    /// temporary name it takes too.
    public static func temporaryURL(for url: URL) -> URL {
        var name = ""
        for character in url.lastPathComponent {
            guard name.utf8.count + character.utf8.count <= 180 else { break }
            name.append(character)
        }
        return url.deletingLastPathComponent().appendingPathComponent(".\(name).tmp-\(getpid())-\(UUID().uuidString)")
    }

    /// The file a write to `url` replaces: `url` itself when nothing or a regular file is there,
    /// the file a symbolic link points to (followed up to 16 links; a dangling link's target is
    /// created).
    /// - Throws: ``AtomicFileError`` when what is there is not a regular file.
    static func regularFileTarget(of url: URL) throws -> URL {
        var target = url
        for _ in 0..<16 {
            var status = stat()
            guard lstat(target.path, &status) == 0 else { return target }  // nothing there: created
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                return target
            case S_IFLNK:
                guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: target.path) else { return target }
                target = destination.hasPrefix("/")
                    ? URL(fileURLWithPath: destination)
                    : target.deletingLastPathComponent().appendingPathComponent(destination)
            default:
                let kind: String
                switch status.st_mode & S_IFMT {
                case S_IFDIR: kind = "a folder"
                case S_IFCHR: kind = "a character device"
                case S_IFBLK: kind = "a block device"
                case S_IFIFO: kind = "a named pipe"
                case S_IFSOCK: kind = "a socket"
                default: kind = "not a regular file"
                }
                let path = target.path == url.path ? url.path : "\(url.path) (a link to \(target.path))"
                throw AtomicFileError(
                    path: path, operation: "write", reason: "it is \(kind), not a regular file, and would be replaced; give a file path")
            }
        }
        throw AtomicFileError(path: url.path, operation: "write", reason: "too many levels of symbolic links")
    }

    /// Flushes a file's or a folder's data to disk with `fsync(2)`.
    /// - Throws: ``AtomicFileError`` if the path cannot be opened or synced.
    public static func sync(path: String, directory: Bool) throws {
        let descriptor = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, operation: "open for fsync", reason: lastErrorText()) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw AtomicFileError(path: path, operation: "fsync", reason: lastErrorText()) }
    }

    /// The text of the current `errno`.
    static func lastErrorText() -> String { String(cString: strerror(errno)) }
}

/// A file could not be written, synced or renamed into place.
public struct AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or folder concerned.
    public var path: String
    /// What was being done: `create`, `write`, `fsync`, `rename`, ...
    public var operation: String
    /// The system's explanation (`strerror`).
    public var reason: String

    public init(path: String, operation: String, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "\(path): cannot \(operation): \(reason)" }
}
