import AtomicFiles
import ContentHashing
import Foundation

extension ContentHash {
    /// SHA-256 of a folder's files with one extension: the content hash of a source that is a
    /// folder, such as OpenPose's per-frame JSON files.
    ///
    /// The hash covers every non-hidden file directly inside the folder whose extension is
    /// `fileExtension` (case-insensitive), sorted by name: it is
    /// `sha256` of the lines `<name>\t<sha256 of the file's bytes>\n`. Renaming, adding, removing or
    /// changing a file changes it; moving the whole folder does not.
    /// ``FileIdentityIndex/contentHash(ofFolderAt:fileExtension:)`` gives the same hash without
    /// reading files whose identity it already knows.
    /// - Parameters:
    ///   - url: the folder.
    ///   - fileExtension: the extension of the files that count, without the dot.
    /// - Throws: ``FeatureCacheError/cannotReadSource(path:reason:)`` if the folder or a file
    ///   cannot be read, ``ContentHashError/cryptoFailure(function:)`` if OpenSSL fails.
    public static func sha256(ofFolderAt url: URL, fileExtension: String) throws -> ContentHash {
        try sha256(ofFolderAt: url, fileExtension: fileExtension) { path, _, _ in try sha256(ofFileAt: URL(fileURLWithPath: path)) }
    }

    /// The folder hash of ``sha256(ofFolderAt:fileExtension:)`` with each file's hash given by
    /// `fileHash`, called with the file's path (the folder's standardized path, `/`, its name),
    /// its name, and the file as a name in the open folder (nil when the folder could not be
    /// opened: the path alone then names it).
    static func sha256(
        ofFolderAt url: URL, fileExtension: String,
        fileHash: (_ path: String, _ name: String, _ entry: FolderEntry?) throws -> ContentHash
    ) throws -> ContentHash {
        let names: [String]
        // `name.<extension>` with a non-empty name, as `NSString.pathExtension` reads it.
        let suffix = "." + fileExtension.lowercased()
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { !$0.hasPrefix(".") && $0.utf8.count > suffix.utf8.count && $0.lowercased().hasSuffix(suffix) }
                .sorted()
        } catch {
            throw FeatureCacheError.cannotReadSource(path: url.path, reason: FileErrorReason.of(error))
        }
        let folder = url.standardizedFileURL.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        var listing = ""
        for name in names {
            let entry = descriptor >= 0 ? FolderEntry(folder: descriptor, name: name) : nil
            listing += "\(name)\t\(try fileHash(prefix + name, name, entry).hexDigest)\n"
        }
        return try sha256(of: listing)
    }
}
