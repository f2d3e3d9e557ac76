/// Class weights that make every class contribute equally to the loss, with scikit-learn's
/// "balanced" formula (`sklearn.utils.class_weight.compute_class_weight`):
///
/// `w[k] = n_samples / (n_classes · count[k])`
///
/// A class with twice the samples gets half the weight; with equal counts every weight is 1.
///
/// - Parameter counts: The number of training samples of each class, `K` entries, each at
///   least 1 (scikit-learn rejects classes that do not occur).
/// - Returns: `K` weights for ``softmaxCrossEntropy(logits:labels:classWeights:labelSmoothing:reduction:)``,
///   or `nil` if a class has no samples.
public func balancedClassWeights(counts: [Int]) -> [Float]? {
    guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else { return nil }
    let total = Double(counts.reduce(0, +))
    return counts.map { Float(total / (Double(counts.count) * Double($0))) }
}
