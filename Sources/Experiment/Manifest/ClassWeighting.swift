import NeuralNetwork

/// The manifest's `training.classWeights`: per-class weights of the cross-entropy loss.
public enum ClassWeighting: Sendable, Hashable {
    /// scikit-learn's "balanced" weights over the training windows:
    /// `n_windows / (n_classes · count[label])` (`sklearn.utils.class_weight.compute_class_weight`).
    case balanced
    /// A weight per label (after `dataset.labels` renaming); labels not named weigh 1.
    case explicit([String: Double])

    /// The weights of the classes in `labels` order.
    ///
    /// - Parameters:
    ///   - labels: The class names, in class-index order.
    ///   - counts: The number of training windows of each class.
    /// - Throws: ``ExperimentError/invalidClassWeights(_:)`` when a class has no training window
    ///   (balanced) or a named label is not a class (explicit).
    public func weights(labels: [String], counts: [Int]) throws -> [Float] {
        switch self {
        case .balanced:
            guard let weights = balancedClassWeights(counts: counts) else {
                let empty = zip(labels, counts).filter { $0.1 == 0 }.map(\.0)
                throw ExperimentError.invalidClassWeights(
                    "training.classWeights 'balanced' needs training windows of every class; none of \(empty)")
            }
            return weights
        case let .explicit(map):
            let unknown = map.keys.filter { !labels.contains($0) }.sorted()
            guard unknown.isEmpty else {
                throw ExperimentError.invalidClassWeights(
                    "training.classWeights: \(unknown.map { "'\($0)'" }.joined(separator: ", ")) match no label (labels: \(labels))")
            }
            return labels.map { Float(map[$0] ?? 1) }
        }
    }
}

extension ClassWeighting {
    /// Reads `"balanced"` or `{ label: weight }` with weights > 0.
    static func read(from node: ManifestNode) -> ClassWeighting? {
        if node.value.stringValue != nil {
            guard node.string() == "balanced" else {
                node.report("unknown value '\(node.value.stringValue ?? "")'; expected 'balanced' or an object { label: weight }")
                return nil
            }
            return .balanced
        }
        return node.dictionary { $0.double(.positive) }.map(ClassWeighting.explicit)
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
