import Foundation

extension AtomicFile {
    /// The process id in a temporary file's name, `.<name>.tmp-<pid>-<uuid>` (see
    /// ``temporaryURL(for:)``), or nil when `fileName` is not such a name.
    /// - Parameter fileName: A file name, without folders.
    /// - Returns: The writer's process id, greater than 0.
    public static func writerProcess(ofTemporaryFileNamed fileName: String) -> pid_t? {
        guard fileName.hasPrefix("."), let marker = fileName.range(of: ".tmp-", options: .backwards),
              marker.lowerBound > fileName.index(after: fileName.startIndex) else { return nil }
        let suffix = fileName[marker.upperBound...]
        guard let dash = suffix.firstIndex(of: "-"), let pid = pid_t(suffix[..<dash]), pid > 0,
              UUID(uuidString: String(suffix[suffix.index(after: dash)...])) != nil else { return nil }
        return pid
    }

    /// Removes the temporary files that writers killed mid-write left in `folder` (not in its
    /// subfolders): files or folders named `.<name>.tmp-<pid>-<uuid>` (``temporaryURL(for:)``).
    ///
    /// A temporary file is never renamed into place once its writer is gone, so it is garbage;
    /// one whose writer still runs may be about to be, and is kept unless the caller owns the
    /// folder exclusively (a claimed trial's partial folder, where no other process writes).
    ///
    /// - Parameters:
    ///   - folder: The folder to clean. A folder that does not exist has nothing to remove.
    ///   - destinationName: Only temporary files of this destination (`.<destinationName>.tmp-…`);
    ///     nil for every destination.
    ///   - includingLiveWriters: Also remove those whose writer is still running. Default false:
    ///     only those whose writer has ended (``ProcessLiveness/hasEnded(_:)``).
    /// - Returns: The names removed, sorted. What cannot be removed is left (best effort).
    @discardableResult
    public static func removeStaleTemporaryFiles(
        in folder: URL, destinationName: String? = nil, includingLiveWriters: Bool = false
    ) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() {
            guard let writer = writerProcess(ofTemporaryFileNamed: name) else { continue }
            if let destinationName, !name.hasPrefix(".\(destinationName).tmp-") { continue }
            guard includingLiveWriters || ProcessLiveness.hasEnded(writer) else { continue }
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
    }
}
