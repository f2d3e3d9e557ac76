import Foundation
import ManifestSchema

/// Where runs write their reports, checkpoints and resolved configurations.
public struct OutputConfiguration: Sendable, Hashable {
    /// The manifest's default reports folder, relative to the base directory.
    public static let defaultDirectoryPath = "reports"

    /// The absolute URL of the reports folder; runs go under `<directory>/<name>/<timestamp>`.
    public var directory: URL

    /// Creates an output configuration.
    public init(directory: URL) {
        self.directory = directory
    }
}
