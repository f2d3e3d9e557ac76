/// What ``EventCounter`` counted in one stream: the events, the counts per action and the
/// segments it did not count.
public struct EventCounts: Sendable, Equatable {
    /// The counted events in time order.
    public var events: [CountedEvent]
    /// The segments not counted because they began within the refractory time of a counted
    /// segment of the same label, in time order.
    public var suppressed: [ActionSegment]

    public init(events: [CountedEvent], suppressed: [ActionSegment]) {
        self.events = events
        self.suppressed = suppressed
    }

    /// The number of events per action; an action with no event is absent.
    public var counts: [String: Int] {
        events.reduce(into: [:]) { counts, event in counts[event.label, default: 0] += 1 }
    }

    /// The number of events of `label` (0 when it has none).
    public func count(of label: String) -> Int {
        events.count { $0.label == label }
    }
}
