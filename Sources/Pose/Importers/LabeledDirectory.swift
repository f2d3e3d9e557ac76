import AtomicFiles
import Foundation

/// Create ML's labeled-directories layout: one folder per class label, holding that class's files.
///
/// ```
/// root/
///   jumping/clip1.csv
///   jumping/clip2.csv
///   waving/clip1.csv
/// ```
///
/// Only entries directly inside a label folder count; files at the root, hidden files and folders
/// (names starting with `.`) and deeper folders are ignored. A folder inside a label folder whose
/// name has the files' extension (`squat/squat.0.csv/`) is listed like a file, so that reading it
/// fails with an error naming it, rather than the data set silently losing a sample.
public enum LabeledDirectory {
    /// A file and the label of the folder it is in.
    public struct Entry: Sendable, Hashable {
        /// The file.
        public var url: URL
        /// The name of the folder the file is in.
        public var label: String

        /// Creates an entry.
        public init(url: URL, label: String) {
            self.url = url
            self.label = label
        }
    }

    /// The files `<root>/<label>/*.<fileExtension>` (and folders so named), sorted by label, then file name.
    ///
    /// The order depends only on the names, never on the file system's listing order, so that
    /// splits and sample indices are reproducible.
    /// - Parameters:
    ///   - root: The directory holding one folder per label.
    ///   - fileExtension: The extension to match, without the dot, compared case-insensitively.
    /// - Returns: One entry per matching file.
    /// - Throws: ``ImportError`` `.unreadable` naming the directory that could not be listed.
    public static func entries(in root: URL, fileExtension: String = "csv") throws -> [Entry] {
        var entries: [Entry] = []
        for folder in try visibleContents(of: root) where isDirectory(folder) {
            let label = folder.lastPathComponent
            for file in try visibleContents(of: folder) where file.pathExtension.lowercased() == fileExtension.lowercased() {
                entries.append(Entry(url: file, label: label))
            }
        }
        return entries.sorted {
            ($0.label, $0.url.lastPathComponent) < ($1.label, $1.url.lastPathComponent)
        }
    }

    private static func visibleContents(of directory: URL) throws -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        } catch {
            throw ImportError(path: directory.path, line: nil, kind: .unreadable(reason: FileErrorReason.of(error)))
        }
    }

    /// True for a directory or a symbolic link to one.
    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
