import Dataset

/// The class probabilities a model gave every window of one split, with the true labels and the
/// recordings the windows came from: enough to score the split again, or to fuse several
/// models' probabilities into an ensemble, without the windows themselves.
public struct WindowScores: Sendable, Hashable {
    /// The class names, `K`, in the order of the model's outputs.
    public var labels: [String]
    /// Probabilities `[N, K]`, window-major.
    public var probabilities: [Float]
    /// The true class of each window, `N` indices into ``labels``.
    public var labelIndices: [Int]
    /// The recording (sequence) of each window, `N` indices into ``sequenceIDs``.
    public var sequenceIndices: [Int]
    /// The recordings' identifiers, `S`.
    public var sequenceIDs: [String]
    /// The true class of each recording, `S` indices into ``labels``.
    public var sequenceLabelIndices: [Int]

    /// The number of windows, `N`.
    public var count: Int { labelIndices.count }

    /// Scores of `windows`.
    ///
    /// - Parameters:
    ///   - windows: The split's windows.
    ///   - probabilities: `[N, K]` for those windows, in their order.
    public init(windows: WindowSet, probabilities: [Float]) {
        self.init(
            labels: windows.labels, probabilities: probabilities, labelIndices: windows.labelIndices,
            sequenceIndices: windows.sequenceIndices, sequenceIDs: windows.sequenceIDs,
            sequenceLabelIndices: windows.sequenceLabelIndices)
    }

    /// Scores from their parts; ``problems`` says whether they fit together.
    public init(
        labels: [String], probabilities: [Float], labelIndices: [Int], sequenceIndices: [Int], sequenceIDs: [String],
        sequenceLabelIndices: [Int]
    ) {
        self.labels = labels
        self.probabilities = probabilities
        self.labelIndices = labelIndices
        self.sequenceIndices = sequenceIndices
        self.sequenceIDs = sequenceIDs
        self.sequenceLabelIndices = sequenceLabelIndices
    }

    /// Problems that make the scores unusable (sizes or indices that do not fit), empty when valid.
    public var problems: [String] {
        var problems: [String] = []
        if probabilities.count != count * labels.count {
            problems.append("\(probabilities.count) probabilities for \(count) windows of \(labels.count) classes")
        }
        if sequenceIndices.count != count { problems.append("\(sequenceIndices.count) recordings named for \(count) windows") }
        if sequenceLabelIndices.count != sequenceIDs.count {
            problems.append("\(sequenceLabelIndices.count) recording labels for \(sequenceIDs.count) recordings")
        }
        if (labelIndices + sequenceLabelIndices).contains(where: { !labels.indices.contains($0) }) {
            problems.append("a label index is not one of \(labels.count) classes")
        }
        if sequenceIndices.contains(where: { !sequenceIDs.indices.contains($0) }) {
            problems.append("a recording index is not one of \(sequenceIDs.count) recordings")
        }
        if !probabilities.allSatisfy({ $0.isFinite && $0 >= 0 }) { problems.append("a probability is negative or not finite") }
        return problems
    }

    /// Whether `other` scores the same windows: the same classes, recordings and true labels.
    public func describesTheSameWindows(as other: WindowScores) -> Bool {
        labels == other.labels && labelIndices == other.labelIndices && sequenceIndices == other.sequenceIndices
            && sequenceIDs == other.sequenceIDs && sequenceLabelIndices == other.sequenceLabelIndices
    }

    /// The weighted mean of several models' probabilities on the same windows (late fusion:
    /// `p = Σ w_m p_m / Σ w_m`, as PYSKL fuses its streams).
    ///
    /// - Parameter members: Scores and weights; every member must describe the same windows
    ///   (``describesTheSameWindows(as:)``) and the weights must be non-negative with a positive sum.
    /// - Returns: The fused scores, or nil when the members do not fit together.
    public static func fused(_ members: [(scores: WindowScores, weight: Double)]) -> WindowScores? {
        guard let first = members.first?.scores,
              members.allSatisfy({ $0.scores.describesTheSameWindows(as: first) && $0.scores.probabilities.count == first.probabilities.count
                  && $0.weight >= 0 && $0.weight.isFinite }) else { return nil }
        let total = members.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var fused = [Double](repeating: 0, count: first.probabilities.count)
        for (scores, weight) in members {
            for (i, p) in scores.probabilities.enumerated() { fused[i] += weight * Double(p) }
        }
        var result = first
        result.probabilities = fused.map { Float($0 / total) }
        return result
    }
}
