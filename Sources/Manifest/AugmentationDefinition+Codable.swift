import Augmentation

extension AugmentationDefinition: Codable {
    private enum CodingKeys: String, CodingKey {
        case extends, drop, set, append
    }

    /// A list of steps as an array of steps (as manifests have always written it); an extension
    /// as `{ extends, drop, set, append }`, empty lists left out.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case let .steps(steps):
            var container = encoder.singleValueContainer()
            try container.encode(steps)
        case let .extending(changes):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(changes.base, forKey: .extends)
            if !changes.drop.isEmpty { try container.encode(changes.drop, forKey: .drop) }
            if !changes.set.isEmpty { try container.encode(changes.set, forKey: .set) }
            if !changes.append.isEmpty { try container.encode(changes.append, forKey: .append) }
        }
    }

    /// Reads either form back.
    /// - Throws: `DecodingError` when the value is neither an array of steps nor an object with `extends`.
    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            self = .extending(Extension(
                base: try container.decode(String.self, forKey: .extends),
                drop: try container.decodeIfPresent([String].self, forKey: .drop) ?? [],
                set: try container.decodeIfPresent([AugmentationStep].self, forKey: .set) ?? [],
                append: try container.decodeIfPresent([AugmentationStep].self, forKey: .append) ?? []))
        } else {
            self = .steps(try decoder.singleValueContainer().decode([AugmentationStep].self))
        }
    }
}
