import ManifestSchema

/// The manifest's `training.classWeights`: per-class weights of the cross-entropy loss.
public enum ClassWeighting: Sendable, Hashable {
    /// scikit-learn's "balanced" weights over the training windows:
    /// `n_windows / (n_classes · count[label])` (`sklearn.utils.class_weight.compute_class_weight`).
    case balanced
    /// A weight per label (after `dataset.labels` renaming); labels not named weigh 1.
    case explicit([String: Double])
}

extension ClassWeighting {
    /// The allowed weights of labels.
    private static let weightBounds = NumericBounds.positive

    /// The manifest setting: `"balanced"` or `{ label: weight }`.
    static var settingKind: SettingKind<ClassWeighting> {
        SettingKind(
            type: "`\"balanced\"` or object of numbers", bounds: "weights \(weightBounds.referenceText)",
            describe: { weighting in
                switch weighting {
                case .balanced: "\"balanced\""
                case .explicit: nil
                }
            },
            read: read(from:))
    }

    /// Reads `"balanced"` or `{ label: weight }` with weights within ``weightBounds``.
    static func read(from node: ManifestNode) -> ClassWeighting? {
        if node.value.stringValue != nil {
            guard node.string() == "balanced" else {
                node.report("unknown value '\(node.value.stringValue ?? "")'; expected 'balanced' or an object { label: weight }")
                return nil
            }
            return .balanced
        }
        return node.dictionary { $0.double(weightBounds) }.map(ClassWeighting.explicit)
    }
}

extension ClassWeighting: Codable {
    /// Manifest form: `"balanced"` or `{ "label": weight }`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .balanced: try container.encode("balanced")
        case let .explicit(map): try container.encode(map)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard text == "balanced" else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown class weighting '\(text)'")
            }
            self = .balanced
        } else {
            self = .explicit(try container.decode([String: Double].self))
        }
    }
}
