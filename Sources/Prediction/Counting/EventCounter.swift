/// Counts performances of actions as segment entries, with a refractory time: what Apple's
/// guidance for counting with an action classifier calls "reliable trigger points" (issue 12).
///
/// Every segment (of smoothed, hysteresis-filtered predictions, from ``SegmentBuilder``) is one
/// performance of its action, counted at its start, unless it starts less than
/// ``refractoryTime`` seconds after the end of the previous *counted* segment of the same
/// label: then it is taken for the same performance, seen again after a short dropout, and is
/// not counted (it is listed in ``EventCounts/suppressed``). Segments of other labels neither
/// reset nor extend the refractory time. Refractory time 0 counts every segment.
///
/// This counts one event per entry into an action, so it suits actions performed once per
/// segment (a stream of separate jumps or throws, or one exercise set per segment); repetitions
/// inside one segment are ``PeriodicityCounter``'s job.
public struct EventCounter: Sendable, Equatable {
    /// Seconds after a counted segment's end during which a new segment of its label is not counted; at least 0.
    public let refractoryTime: Double

    /// Creates a counter.
    /// - Parameter refractoryTime: In seconds; finite and at least 0.
    /// - Throws: ``PostprocessingError/invalidParameter(name:value:reason:)`` for a negative or non-finite time.
    public init(refractoryTime: Double) throws(PostprocessingError) {
        guard refractoryTime.isFinite, refractoryTime >= 0 else {
            throw .invalidParameter(name: "refractory time", value: "\(refractoryTime)", reason: "must be a finite number of seconds, at least 0")
        }
        self.refractoryTime = refractoryTime
    }

    /// The events in `segments`.
    /// - Parameter segments: One stream's segments; taken in order of start time (stable).
    /// - Returns: The counted events and the suppressed segments, in time order.
    public func count(_ segments: [ActionSegment]) -> EventCounts {
        let ordered = segments.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var lastCountedEnd: [String: Double] = [:]
        var events: [CountedEvent] = []
        var suppressed: [ActionSegment] = []
        for segment in ordered {
            if let end = lastCountedEnd[segment.label], segment.start - end < refractoryTime {
                suppressed.append(segment)
            } else {
                events.append(CountedEvent(label: segment.label, time: segment.start, segment: segment))
                lastCountedEnd[segment.label] = segment.end
            }
        }
        return EventCounts(events: events, suppressed: suppressed)
    }
}
