import Randomness

/// Carves a validation set out of training sequences: seeded, stratified by label, and grouped
/// by recording so that windows of one recording never straddle train and validation.
///
/// Algorithm: recordings (`LabeledSequence.group`) are sorted by name and bucketed by their
/// label (a recording whose sequences carry several labels goes to the bucket of its most
/// frequent one, ties to the alphabetically first). Each bucket is shuffled with
/// `SeededGenerator(seed:purpose: "validation-split", index: bucket)` and its first
/// `round(fraction × count)` recordings go to validation, at least one when the bucket has two
/// or more and at most `count − 1`, so every label keeps training data.
public struct ValidationSplit: Sendable {
    /// Share of each label's recordings that go to validation, in (0, 0.5].
    public var fraction: Double
    /// The split's own seed, independent of the training seeds.
    public var seed: Int

    public init(fraction: Double, seed: Int) {
        self.fraction = fraction
        self.seed = seed
    }

    /// The sequences split into training and validation, each in the input order.
    public func split<Sequence: RecordingMember>(_ sequences: [Sequence]) -> (train: [Sequence], validation: [Sequence]) {
        split(sequences) { $0.group }
    }

    /// The sequences split into training and validation by the groups `group` assigns, each in
    /// the input order: the same algorithm with another notion of group, such as a subject
    /// (`DatasetSequence.fields["subject"]`), so that no subject is on both sides. A group that
    /// holds every label (a subject who performs every action) buckets by its most frequent
    /// label, ties to the alphabetically first, so such groups share one bucket and the split
    /// takes `round(fraction × groups)` of them.
    ///
    /// - Parameters:
    ///   - sequences: The training sequences.
    ///   - group: The group of a sequence.
    public func split<Sequence: RecordingMember>(
        _ sequences: [Sequence], groupedBy group: (Sequence) -> String
    ) -> (train: [Sequence], validation: [Sequence]) {
        var labelCounts: [String: [String: Int]] = [:]
        for sample in sequences { labelCounts[group(sample), default: [:]][sample.label, default: 0] += 1 }
        var buckets: [String: [String]] = [:]
        for group in labelCounts.keys.sorted() {
            let counts = labelCounts[group] ?? [:]
            let label = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
            buckets[label, default: []].append(group)
        }
        var validationGroups = Set<String>()
        for (bucketIndex, label) in buckets.keys.sorted().enumerated() {
            var groups = buckets[label] ?? []
            var generator = SeededGenerator(seed: UInt64(seed), purpose: "validation-split", index: bucketIndex)
            generator.shuffle(&groups)
            var take = Int((fraction * Double(groups.count)).rounded())
            if groups.count >= 2 { take = min(max(take, 1), groups.count - 1) } else { take = 0 }
            validationGroups.formUnion(groups.prefix(take))
        }
        return (
            sequences.filter { !validationGroups.contains(group($0)) },
            sequences.filter { validationGroups.contains(group($0)) }
        )
    }
}
