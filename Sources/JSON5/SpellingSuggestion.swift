/// "Did you mean" suggestions: the candidate nearest to a misspelled word by edit distance.
public enum SpellingSuggestion {
    /// The Damerau–Levenshtein distance between two strings (optimal string alignment variant).
    ///
    /// Counts the fewest insertions, deletions, substitutions and transpositions of adjacent
    /// characters that turn one string into the other, with no substring edited twice
    /// (Damerau 1964; the restricted "optimal string alignment" form). Characters are compared
    /// as Unicode scalars, case-sensitively.
    ///
    /// - Returns: A distance between 0 and the length of the longer string.
    public static func editDistance(_ source: String, _ target: String) -> Int {
        let a = Array(source.unicodeScalars)
        let b = Array(target.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rolling rows of the dynamic-programming table: i-2, i-1 and i.
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, previousPrevious[j - 2] + 1)
                }
                row[j] = best
            }
            (previousPrevious, previous, row) = (previous, row, previousPrevious)
        }
        return previous[b.count]
    }

    /// The largest distance at which a candidate is still offered for a word of this length.
    ///
    /// One edit for words up to 5 characters, two up to 8, then one more per 4 characters, at
    /// most 4: close enough that the suggestion is plausibly what was meant.
    public static func maximumDistance(forLength length: Int) -> Int {
        switch length {
        case ..<6: 1
        case ..<9: 2
        default: min(4, 2 + (length - 8) / 4)
        }
    }

    /// The candidate nearest to `word`, if one is close enough to be a plausible misspelling.
    ///
    /// Distances ignore case, so `batchsize` finds `batchSize`. Ties go to the candidate that
    /// comes first in `candidates`. The cutoff is ``maximumDistance(forLength:)`` of `word`'s
    /// length unless given.
    ///
    /// - Parameters:
    ///   - word: The unrecognized word, such as an unknown manifest key.
    ///   - candidates: The valid words, in order of preference.
    ///   - maximumDistance: The largest edit distance to accept.
    /// - Returns: The nearest candidate, or `nil` if none is within the cutoff or `word` itself
    ///   is a candidate.
    public static func nearest(
        to word: String, in candidates: some Sequence<String>, maximumDistance: Int? = nil
    ) -> String? {
        let cutoff = maximumDistance ?? self.maximumDistance(forLength: word.unicodeScalars.count)
        let lowered = word.lowercased()
        let length = word.unicodeScalars.count
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            if candidate == word { return nil }
            // The distance is at least the difference in length: skip the table for a word far
            // longer than any candidate (a 10 MB key), which would otherwise cost O(n · m).
            if abs(candidate.unicodeScalars.count - length) > cutoff { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= cutoff, distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }
}
