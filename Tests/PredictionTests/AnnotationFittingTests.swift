@testable import Prediction
import Testing

/// Montage annotations on a stream, fitted as training fits them: a range past the stream's end
/// is clamped, one after it left out, overlapping ones noted. Before, `predict` drew the ground
/// truth to 9 s on a 6-s video and scored a stream whose only range lay after its end as 0 %.
@Suite struct AnnotationFittingTests {
    typealias Annotation = PredictionInput.Annotation

    @Test func rangesPastTheEndAreClampedOrLeftOutWithANote() {
        var notes: [String] = []
        let fitted = PredictionRun.annotations(
            [Annotation(label: "walk", start: 0, end: 2), Annotation(label: "squat", start: 3, end: 9),
             Annotation(label: "wave", start: 6, end: 8)],
            within: 6, origin: "ann.csv:2", notes: &notes)
        #expect(fitted == [Annotation(label: "walk", start: 0, end: 2), Annotation(label: "squat", start: 3, end: 6)])
        #expect(notes == [
            "the annotated 'squat' from 3.00 s to 9.00 s (ann.csv:2) ends past the stream's end at 6.00 s: clamped",
            "the annotated 'wave' from 6.00 s (ann.csv:2) starts at or after the stream's end at 6.00 s: left out",
        ])
    }

    @Test func overlappingRangesAreKeptWithANote() {
        var notes: [String] = []
        let annotations = [Annotation(label: "arm-circles", start: 0, end: 2), Annotation(label: "idle", start: 1, end: 3)]
        let fitted = PredictionRun.annotations(annotations, within: 3, origin: "m.csv", notes: &notes)
        #expect(fitted == annotations)
        #expect(notes == ["the annotated 'arm-circles' and 'idle' (m.csv) overlap from 1.00 s: the later one is scored where they do"])
        notes = []
        // Ranges that touch do not overlap; an open end runs to the stream's end.
        _ = PredictionRun.annotations(
            [Annotation(label: "a", start: 0, end: 1), Annotation(label: "b", start: 1, end: nil)], within: 3, origin: "m.csv", notes: &notes)
        #expect(notes.isEmpty)
    }
}
