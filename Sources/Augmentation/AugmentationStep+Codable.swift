// Manifest form, `{ "kind": "rotation", "degrees": 10 }`: the conformance must live in this
// module; an implementation in another module would not be the conformance's witness, and the
// synthesized one would be used instead.
extension AugmentationStep {
    private enum CodingKeys: String, CodingKey {
        case kind, probability, degrees, minimum, maximum, standardDeviation, minimumSpeed, maximumSpeed
    }

    /// `{ "kind": "rotation", "degrees": 10 }`, as in a manifest's `augmentations`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case let .horizontalFlip(probability), let .frameDrop(probability), let .jointDropout(probability):
            try container.encode(probability, forKey: .probability)
        case let .rotation(degrees):
            try container.encode(degrees, forKey: .degrees)
        case let .scale(minimum, maximum):
            try container.encode(minimum, forKey: .minimum)
            try container.encode(maximum, forKey: .maximum)
        case let .translation(maximum), let .shear(maximum):
            try container.encode(maximum, forKey: .maximum)
        case let .jitter(standardDeviation):
            try container.encode(standardDeviation, forKey: .standardDeviation)
        case let .timeInterpolation(minimumSpeed, maximumSpeed):
            try container.encode(minimumSpeed, forKey: .minimumSpeed)
            try container.encode(maximumSpeed, forKey: .maximumSpeed)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value(_ key: CodingKeys) throws -> Double { try container.decode(Double.self, forKey: key) }
        switch try container.decode(String.self, forKey: .kind) {
        case "flip": self = .horizontalFlip(probability: try value(.probability))
        case "rotation": self = .rotation(degrees: try value(.degrees))
        case "scale": self = .scale(minimum: try value(.minimum), maximum: try value(.maximum))
        case "translation": self = .translation(maximum: try value(.maximum))
        case "shear": self = .shear(maximum: try value(.maximum))
        case "jitter": self = .jitter(standardDeviation: try value(.standardDeviation))
        case "timeInterpolation": self = .timeInterpolation(minimumSpeed: try value(.minimumSpeed), maximumSpeed: try value(.maximumSpeed))
        case "frameDrop": self = .frameDrop(probability: try value(.probability))
        case "jointDropout": self = .jointDropout(probability: try value(.probability))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown augmentation kind '\(other)'")
        }
    }
}

