/// The segmental edit score: how well the order of predicted segments matches the ground
/// truth's, whatever their timing (Lea et al. 2017; MS-TCN's `edit_score`, Farha and Gall 2019).
enum EditScore {
    /// `100 · (1 − d / max(m, n))` for the Levenshtein distance `d` between the label sequences
    /// of `predicted` (m segments) and `groundTruth` (n segments), in percent; 100 when both are
    /// empty (where MS-TCN divides 0 by 0).
    static func score(predicted: [String], groundTruth: [String]) -> Double {
        let longest = max(predicted.count, groundTruth.count)
        guard longest > 0 else { return 100 }
        return (1 - Double(levenshteinDistance(predicted, groundTruth)) / Double(longest)) * 100
    }

    /// The number of insertions, deletions and substitutions that turn `a` into `b`.
    static func levenshteinDistance(_ a: [String], _ b: [String]) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = left == right ? previous[j] : 1 + min(previous[j], previous[j + 1], current[j])
            }
            previous = current
        }
        return previous[b.count]
    }
}
