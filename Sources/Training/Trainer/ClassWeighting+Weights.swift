import Manifest
import NeuralNetwork

extension ClassWeighting {
    /// The weights of the classes in `labels` order.
    ///
    /// - Parameters:
    ///   - labels: The class names, in class-index order.
    ///   - counts: The number of training windows of each class.
    /// - Throws: ``TrainingError/invalidClassWeights(_:)`` when a class has no training window
    ///   (balanced) or a named label is not a class (explicit).
    public func weights(labels: [String], counts: [Int]) throws -> [Float] {
        switch self {
        case .balanced:
            guard let weights = balancedClassWeights(counts: counts) else {
                let empty = zip(labels, counts).filter { $0.1 == 0 }.map(\.0)
                throw TrainingError.invalidClassWeights(
                    "training.classWeights 'balanced' needs training windows of every class; none of \(empty)")
            }
            return weights
        case let .explicit(map):
            let unknown = map.keys.filter { !labels.contains($0) }.sorted()
            guard unknown.isEmpty else {
                throw TrainingError.invalidClassWeights(
                    "training.classWeights: \(unknown.map { "'\($0)'" }.joined(separator: ", ")) match no label (labels: \(labels))")
            }
            return labels.map { Float(map[$0] ?? 1) }
        }
    }
}
