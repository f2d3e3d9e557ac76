/// A pose sequence with its label and where it came from: the unit that datasets, splits and
/// the feature cache deal in.
public struct LabeledSequence: Sendable, Equatable {
    /// Unique within a dataset: the source path, plus `#index` when one file holds several
    /// sequences (a UEA/UCR `.ts` file holds one per data row).
    public var id: String
    /// The class label.
    public var label: String
    /// The recording this sequence came from. Windows of one group never straddle a train /
    /// validation split.
    public var group: String
    /// The keypoints.
    public var sequence: PoseSequence

    public init(id: String, label: String, group: String, sequence: PoseSequence) {
        self.id = id
        self.label = label
        self.group = group
        self.sequence = sequence
    }
}
