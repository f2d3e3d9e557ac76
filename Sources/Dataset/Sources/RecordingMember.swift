import Pose

/// A labelled sequence that belongs to a recording: what ``ValidationSplit`` needs to split
/// sequences by recording and stratify by label.
public protocol RecordingMember {
    /// The class label.
    var label: String { get }
    /// The recording the sequence belongs to.
    var group: String { get }
}

extension LabeledSequence: RecordingMember {}
extension DatasetSequence: RecordingMember {}
