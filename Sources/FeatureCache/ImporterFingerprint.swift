import Foundation
import Synchronization

/// What produced a cache entry's sequences: importer name, its version and its settings.
///
/// Any change of importer, version or a setting changes the fingerprint and so the cache key,
/// which makes old entries unreachable instead of wrong. Bump ``version`` whenever an importer's
/// output changes for the same input.
public struct ImporterFingerprint: Hashable, Sendable, Codable {
    /// The importer's name, for example `"openpose-json"` or `"uea-ts"`.
    public var importer: String
    /// The importer's version; bump it when its output changes.
    public var version: String
    /// Settings that affect the output (`"layout": "vision18"`, `"frame_rate": "30.0"`).
    public var settings: [String: String]

    /// Creates a fingerprint.
    public init(importer: String, version: String, settings: [String: String] = [:]) {
        self.importer = importer
        self.version = version
        self.settings = settings
    }

    /// The fingerprint as canonical text: JSON with sorted keys and no whitespace, for example
    /// `{"importer":"uea-ts","settings":{"layout":"univariate"},"version":"1"}`.
    ///
    /// Equal fingerprints give equal text and different ones different text (JSON escaping keeps
    /// separators inside values from colliding). This is the `fingerprint` attribute of a cache
    /// file and the text hashed into its key.
    public var canonicalString: String {
        // A source's entries all share one fingerprint: encode it once (a `JSONEncoder` costs tens
        // of microseconds, twice per entry otherwise).
        if let known = Self.encoded.withLock({ $0[self] }) { return known }
        let text = encodedCanonically
        Self.encoded.withLock { encoded in
            if encoded.count >= 256 { encoded.removeAll(keepingCapacity: true) }
            encoded[self] = text
        }
        return text
    }

    /// Canonical texts already made, by fingerprint.
    private static let encoded = Mutex<[ImporterFingerprint: String]>([:])

    /// ``canonicalString``, encoded.
    private var encodedCanonically: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings cannot fail; the fallback keeps this non-throwing.
        guard let data = try? encoder.encode(self) else {
            return "importer=\(importer)\nversion=\(version)\nsettings=\(settings.sorted { $0.key < $1.key })"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// This fingerprint with the skeleton layout and frame rate added to its settings
    /// (`layout`, `frame_rate`), so imports of one file into different layouts or rates never
    /// share a cache entry.
    public func adding(layoutName: String, frameRate: Double) -> ImporterFingerprint {
        var copy = self
        copy.settings["layout"] = layoutName
        copy.settings["frame_rate"] = String(frameRate)
        return copy
    }
}
