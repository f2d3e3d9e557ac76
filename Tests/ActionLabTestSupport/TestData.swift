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

extension TestData {
    /// What to do when UTD-MHAD is missing: the same instructions `scripts/setup-utd-mhad` prints.
    public static var utdMHADMissingMessage: String {
        let folder = root.appendingPathComponent("utd-mhad", isDirectory: true).path
        return "UTD-MHAD is not installed in \(folder): run scripts/setup (it copies $ACTIONLAB_UTD_MHAD or "
            + "../shared/data/utd-mhad when present), or download the skeleton part, Skeleton.zip, from the "
            + "dataset's page https://personal.utdallas.edu/~kehtar/UTD-MHAD.html and unzip it so that the "
            + "files are \(folder)/Skeleton/a1_s1_t1_skeleton.mat ... (861 files)"
    }

    /// UTD-MHAD's skeleton folder (`<data>/utd-mhad/Skeleton`, 861 `a<action>_s<subject>_t<trial>_skeleton.mat`
    /// files); fails the test with ``utdMHADMissingMessage`` when it is absent. Never skips.
    public static func utdMHADSkeletonFolder(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let folder = root.appendingPathComponent("utd-mhad/Skeleton", isDirectory: true)
        let sample = folder.appendingPathComponent("a1_s1_t1_skeleton.mat")
        try #require(FileManager.default.fileExists(atPath: sample.path), "\(utdMHADMissingMessage)", sourceLocation: sourceLocation)
        return folder
    }
}

/// Writes `text` to `name` (a relative path) in `directory` and returns its URL.
public func writeFixture(_ text: String, named name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url
}
