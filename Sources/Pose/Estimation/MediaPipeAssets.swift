import Foundation

/// Where ActionLab looks for MediaPipe's library and pose model, which `scripts/setup` puts in
/// `data/pose/`.
///
/// For each file the first rule that applies decides, and only its path or paths are tried:
/// 1. a path given explicitly (``MediaPipePoseEstimator/Options``);
/// 2. the environment variable (``libraryEnvironmentVariable``, ``modelEnvironmentVariable``), when
///    set and not empty;
/// 3. otherwise `data/pose/FILE` under the current directory, then under the package checkout this
///    module was built from (so `swift test` and `.build/release/actionlab` find the files that
///    `scripts/setup` fetched wherever they are started from on the machine that built them).
/// Nothing is downloaded; a file found nowhere is an error naming every path tried and `scripts/setup`.
public enum MediaPipeAssets {
    /// Environment variable naming libmediapipe.so.
    public static let libraryEnvironmentVariable = "ACTIONLAB_MEDIAPIPE_LIBRARY"
    /// Environment variable naming the pose landmarker model bundle (`.task`).
    public static let modelEnvironmentVariable = "ACTIONLAB_POSE_MODEL"
    /// The library's path under the package root, where `scripts/setup-pose` puts it.
    public static let defaultLibraryPath = "data/pose/libmediapipe.so"
    /// The model bundle's path under the package root, where `scripts/setup-pose` builds it.
    public static let defaultModelPath = "data/pose/pose_landmarker_full.task"

    /// The paths to try, in order, for one file.
    /// - Parameters:
    ///   - explicitPath: A path the caller gave, or nil.
    ///   - environmentVariable: The variable that may name the file.
    ///   - defaultRelativePath: The file's path relative to a package root.
    ///   - environment: The process environment.
    ///   - currentDirectory: The current directory's path.
    ///   - packageRoot: The package checkout this module was built from, or nil.
    /// - Returns: One path for rules 1 and 2, up to two for rule 3 (duplicates removed).
    public static func candidatePaths(
        explicitPath: String?, environmentVariable: String, defaultRelativePath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        packageRoot: String? = buildPackageRoot
    ) -> [String] {
        if let explicitPath { return [explicitPath] }
        if let path = environment[environmentVariable], !path.isEmpty { return [path] }
        var paths = [URL(fileURLWithPath: currentDirectory).appendingPathComponent(defaultRelativePath).path]
        if let packageRoot {
            let path = URL(fileURLWithPath: packageRoot).appendingPathComponent(defaultRelativePath).path
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The library's path: the first candidate (``candidatePaths(explicitPath:environmentVariable:defaultRelativePath:environment:currentDirectory:packageRoot:)``) that exists.
    /// - Throws: ``PoseEstimationError/libraryNotFound(searched:)``.
    public static func libraryPath(explicitPath: String? = nil) throws -> String {
        let candidates = candidatePaths(
            explicitPath: explicitPath, environmentVariable: libraryEnvironmentVariable,
            defaultRelativePath: defaultLibraryPath)
        guard let path = firstExisting(candidates) else { throw PoseEstimationError.libraryNotFound(searched: candidates) }
        return path
    }

    /// The model bundle's path: the first candidate that exists.
    /// - Throws: ``PoseEstimationError/modelNotFound(searched:)``.
    public static func modelPath(explicitPath: String? = nil) throws -> String {
        let candidates = candidatePaths(
            explicitPath: explicitPath, environmentVariable: modelEnvironmentVariable,
            defaultRelativePath: defaultModelPath)
        guard let path = firstExisting(candidates) else { throw PoseEstimationError.modelNotFound(searched: candidates) }
        return path
    }

    /// The root of the package checkout this file was compiled in (`Sources/Pose/Estimation/` is
    /// three levels below it), or nil when that checkout is no longer there.
    public static var buildPackageRoot: String? {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) ? root.path : nil
    }

    private static func firstExisting(_ paths: [String]) -> String? {
        paths.first { FileManager.default.fileExists(atPath: $0) }
    }
}
