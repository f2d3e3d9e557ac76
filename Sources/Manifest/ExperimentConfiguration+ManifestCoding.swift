import Foundation
import NeuralNetwork
import Pose

// Codable in manifest form of the model, which its family registry will declare. The other
// sections derive theirs from their settings (`ManifestSection`): `resolved.json` (and the
// configurations inside `sweep.json`) read back as manifests and decode to equal configurations.

extension ModelConfiguration {
    private enum CodingKeys: String, CodingKey { case kind, channels, kernelSizes, dropout, edgeImportance, hiddenUnits, normalizeInput }

    /// Manifest form: settings of another kind are left out, as a manifest would leave them.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if kind == .tcn {
            try container.encode(channels, forKey: .channels)
            try container.encode(kernelSizes, forKey: .kernelSizes)
        }
        if kind.isGraphModel { try container.encode(edgeImportance, forKey: .edgeImportance) }
        if kind == .mlp { try container.encode(hiddenUnits, forKey: .hiddenUnits) }
        try container.encode(dropout, forKey: .dropout)
        try container.encode(normalizeInput, forKey: .normalizeInput)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ModelConfiguration()
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            channels: try container.decodeIfPresent([Int].self, forKey: .channels) ?? defaults.channels,
            kernelSizes: try container.decodeIfPresent([Int].self, forKey: .kernelSizes) ?? defaults.kernelSizes,
            dropout: try container.decode(Double.self, forKey: .dropout),
            edgeImportance: try container.decodeIfPresent(Bool.self, forKey: .edgeImportance) ?? defaults.edgeImportance,
            hiddenUnits: try container.decodeIfPresent(Int.self, forKey: .hiddenUnits) ?? defaults.hiddenUnits,
            normalizeInput: try container.decodeIfPresent(Bool.self, forKey: .normalizeInput) ?? defaults.normalizeInput)
    }
}
