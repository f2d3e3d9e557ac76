import Pose

/// What an importer produced from one source: the contents of a ``CacheEntry`` apart from the
/// facts the cache adds itself (key, source hash, fingerprint, time).
public struct ImportedContents: Sendable, Equatable {
    /// The imported sequences, in importer order.
    public var sequences: [LabeledSequence]
    /// Facts about the source, stored as the entry's `metadata` attribute (see ``CacheEntry``).
    public var metadata: [String: String]
    /// The number of people found per frame, one `[T]` array per sequence, or empty.
    public var personCounts: [[Int]]

    /// Creates contents.
    public init(sequences: [LabeledSequence], metadata: [String: String] = [:], personCounts: [[Int]] = []) {
        self.sequences = sequences
        self.metadata = metadata
        self.personCounts = personCounts
    }
}
