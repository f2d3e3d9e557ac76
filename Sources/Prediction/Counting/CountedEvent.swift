/// One counted performance of an action: the entry into a segment of that action.
public struct CountedEvent: Sendable, Equatable {
    /// The action.
    public var label: String
    /// When it was counted: the segment's start, in seconds from the stream's first frame.
    public var time: Double
    /// The segment whose entry was counted.
    public var segment: ActionSegment

    public init(label: String, time: Double, segment: ActionSegment) {
        self.label = label
        self.time = time
        self.segment = segment
    }
}
