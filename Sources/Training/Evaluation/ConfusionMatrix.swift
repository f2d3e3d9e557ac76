/// Counts of true label against predicted label, with the per-class and overall scores
/// derived from them.
///
/// Rows are true labels, columns predicted labels, both in `labels` order. Precision, recall
/// and F1 follow the usual definitions (scikit-learn's `precision_recall_fscore_support` with
/// `zero_division=0`): a class never predicted has precision 0, a class never present has
/// recall 0. Macro-F1 is the unweighted mean of the per-class F1 over classes present in the
/// true labels or the predictions.
public struct ConfusionMatrix: Sendable, Equatable {
    /// Class names, in the order of the matrix's rows and columns.
    public let labels: [String]
    /// `counts[trueIndex][predictedIndex]`, `[K, K]`.
    public private(set) var counts: [[Int]]

    /// An all-zero matrix over `labels`.
    public init(labels: [String]) {
        self.labels = labels
        counts = Array(repeating: Array(repeating: 0, count: labels.count), count: labels.count)
    }

    /// A matrix with the given counts, as read back from a `confusion_<split>.csv` file.
    /// - Returns: nil unless `counts` is `[K, K]` for `K = labels.count` with no negative count.
    public init?(labels: [String], counts: [[Int]]) {
        guard counts.count == labels.count, counts.allSatisfy({ $0.count == labels.count && $0.allSatisfy { $0 >= 0 } }) else {
            return nil
        }
        self.labels = labels
        self.counts = counts
    }

    /// Counts one prediction.
    /// - Precondition: both indices are in `0..<labels.count`.
    public mutating func record(trueIndex: Int, predictedIndex: Int) {
        counts[trueIndex][predictedIndex] += 1
    }

    /// Number of predictions counted.
    public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }

    /// Correct predictions over all predictions; 0 for an empty matrix.
    public var accuracy: Double {
        let total = self.total
        guard total > 0 else { return 0 }
        let correct = labels.indices.reduce(0) { $0 + counts[$1][$1] }
        return Double(correct) / Double(total)
    }

    /// Scores of one class.
    public struct ClassScores: Sendable, Equatable {
        /// True positives / predicted positives (0 when nothing was predicted as this class).
        public var precision: Double
        /// True positives / actual positives (0 when the class is absent).
        public var recall: Double
        /// Harmonic mean of precision and recall (0 when both are 0).
        public var f1: Double
        /// Number of samples whose true label is this class.
        public var support: Int
    }

    /// Precision, recall, F1 and support of the class at `index`.
    public func scores(ofClass index: Int) -> ClassScores {
        let truePositives = counts[index][index]
        let actual = counts[index].reduce(0, +)
        let predicted = counts.reduce(0) { $0 + $1[index] }
        let precision = predicted > 0 ? Double(truePositives) / Double(predicted) : 0
        let recall = actual > 0 ? Double(truePositives) / Double(actual) : 0
        let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        return ClassScores(precision: precision, recall: recall, f1: f1, support: actual)
    }

    /// Unweighted mean F1 over the classes that occur as a true or a predicted label; 0 if none do.
    public var macroF1: Double {
        let occurring = labels.indices.filter { index in
            counts[index].reduce(0, +) > 0 || counts.contains { $0[index] > 0 }
        }
        guard !occurring.isEmpty else { return 0 }
        return occurring.reduce(0) { $0 + scores(ofClass: $1).f1 } / Double(occurring.count)
    }
}
