import Foundation
import JSON5

/// The state shared by every reader while one manifest is decoded: the issues found so far
/// and the directory that relative paths are resolved against.
package final class ManifestDiagnostics {
    /// The directory that relative paths in the manifest are resolved against.
    let baseDirectory: URL
    /// The problems found so far, in the order they were found.
    package private(set) var issues: [ManifestIssue] = []

    package init(baseDirectory: URL) {
        self.baseDirectory = baseDirectory
    }

    /// Records a problem with the value or key at `path`, which starts at `location`.
    func report(_ message: String, at path: JSONPath, location: SourceLocation) {
        issues.append(ManifestIssue(path: path.description, line: location.line, column: location.column, message: message))
    }

    /// The absolute, standardized file URL of a manifest path: absolute paths stay, relative
    /// ones are taken relative to ``baseDirectory``.
    package func resolve(_ path: String) -> URL {
        // isDirectory is given, never probed: Foundation would otherwise add a trailing slash
        // when the path happens to exist as a folder, and the same manifest would resolve (and
        // hash into trial ids) differently before and after the cache folder is created.
        let url = path.hasPrefix("/")
            ? URL(fileURLWithPath: path, isDirectory: false)
            : baseDirectory.appendingPathComponent(path, isDirectory: false)
        return url.standardizedFileURL
    }
}
