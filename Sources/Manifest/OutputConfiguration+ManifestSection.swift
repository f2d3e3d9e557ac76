import Foundation
import ManifestSchema

extension OutputConfiguration: ManifestSection {
    /// The reports folder relative to the current directory; a manifest's reader resolves it
    /// against the manifest's base directory instead.
    package static var defaults: OutputConfiguration {
        OutputConfiguration(directory: URL(fileURLWithPath: defaultDirectoryPath, isDirectory: false))
    }

    package static var settings: [Setting<OutputConfiguration>] {
        [
            .path("directory", \.directory, default: defaultDirectoryPath, "runs go under `<directory>/<name>/<UTC timestamp>`; not part of the trial id"),
        ]
    }
}

extension OutputConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
