import Foundation
import Testing

/// Where the real data sets live: `$ACTIONLAB_DATA`, else `<package root>/data`, filled by `scripts/setup`.
public enum TestData {
    public static var root: URL {
        if let path = ProcessInfo.processInfo.environment["ACTIONLAB_DATA"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is <package root>/Tests/ActionLabTestSupport/TestData.swift.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data", isDirectory: true)
    }

    /// The package's root folder (for manifests under `experiments/`).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The file at `relativePath` under the data root; fails the test, saying how to get it, if absent.
    public static func file(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "missing \(url.path): run scripts/setup to fetch the data sets (or set ACTIONLAB_DATA)",
            sourceLocation: sourceLocation)
        return url
    }
}

/// Writes `text` to `name` (a relative path) in `directory` and returns its URL.
public func writeFixture(_ text: String, named name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}
