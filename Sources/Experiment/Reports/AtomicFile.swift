import Foundation

/// Writes files so that a reader, or a process killed half-way, sees either the old file or the
/// complete new one, never part of it.
///
/// The bytes go to a uniquely named temporary file in the destination's folder, are flushed to
/// disk with `fsync(2)`, and the file is renamed over the destination with `rename(2)`, which
/// POSIX makes atomic within one file system.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    /// - Throws: `ExperimentError.writeFailed` naming the file and the system's reason.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExperimentError.writeFailed(path: folder.path, reason: error.localizedDescription)
        }
        let temporary = temporaryURL(for: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure(url, errno) }
        var ok = true
        var failedErrno: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    ok = false
                    failedErrno = errno
                    return
                }
                offset += written
            }
        }
        if ok && fsync(descriptor) != 0 { ok = false; failedErrno = errno }
        close(descriptor)
        if ok && rename(temporary.path, url.path) != 0 { ok = false; failedErrno = errno }
        if !ok {
            unlink(temporary.path)
            throw failure(url, failedErrno)
        }
    }

    /// Writes `text` as UTF-8 to `url` atomically.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Encodes `value` as pretty-printed JSON with sorted keys (so equal values give equal bytes)
    /// and writes it to `url` atomically.
    public static func writeJSON<Value: Encodable>(_ value: Value, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(value)
            data.append(0x0A)
            try write(data, to: url)
        } catch let error as ExperimentError {
            throw error
        } catch {
            throw ExperimentError.writeFailed(path: url.path, reason: "cannot encode JSON: \(error)")
        }
    }

    /// A name beside `url` that no other writer uses: `.<name>.tmp-<pid>-<uuid>`.
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())-\(UUID().uuidString)")
    }

    private static func failure(_ url: URL, _ code: Int32) -> ExperimentError {
        ExperimentError.writeFailed(path: url.path, reason: String(cString: strerror(code)))
    }
}
