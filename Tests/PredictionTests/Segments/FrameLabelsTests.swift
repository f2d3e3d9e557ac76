import Testing

@testable import Prediction

@Suite struct FrameLabelsTests {
    @Test func aFrameTakesTheLabelOfTheIntervalHoldingItsInstant() throws {
        // At 10 fps frame n is at n / 10 s; [0.2, 0.5) holds frames 2, 3, 4 and [0.5, 0.75) frames 5, 6, 7.
        let labels = try FrameLabels.labels(ofIntervals: [("a", 0.2, 0.5), ("b", 0.5, 0.75)], frameCount: 10, frameRate: 10)
        #expect(labels == [nil, nil, "a", "a", "a", "b", "b", "b", nil, nil])
    }

    @Test func boundariesComputedInFloatingPointLandOnTheirFrames() throws {
        // 0.1 * 3 = 0.30000000000000004 and 0.7 = 0.69999999999999996: still frames 3 ..< 7 at 10 fps.
        let labels = try FrameLabels.labels(ofIntervals: [("a", 0.1 * 3, 0.7)], frameCount: 10, frameRate: 10)
        #expect(labels.firstIndex { $0 == "a" } == 3)
        #expect(labels.lastIndex { $0 == "a" } == 6)
    }

    @Test func intervalsAreClippedToTheFramesAndLaterOnesWin() throws {
        let labels = try FrameLabels.labels(ofIntervals: [("a", -5, 0.3), ("b", 0.2, 99), ("c", 0.6, 0.6)], frameCount: 5, frameRate: 10)
        #expect(labels == ["a", "a", "b", "b", "b"])
    }

    @Test func segmentsGiveTheSameLabelsAsTheirIntervals() throws {
        let segment = ActionSegment(label: "jump", start: 1, end: 2, predictions: 0...2, meanConfidence: 0.8)
        #expect(try FrameLabels.labels(of: [segment], frameCount: 4, frameRate: 2) == [nil, nil, "jump", "jump"])
    }

    @Test func aNegativeFrameCountOrABadFrameRateIsAnError() {
        #expect(throws: PostprocessingError.self) { try FrameLabels.labels(ofIntervals: [], frameCount: -1, frameRate: 30) }
        #expect(throws: PostprocessingError.self) { try FrameLabels.labels(ofIntervals: [], frameCount: 10, frameRate: .nan) }
        #expect(throws: PostprocessingError.self) { try FrameLabels.labels(ofIntervals: [("a", .nan, 1)], frameCount: 10, frameRate: 30) }
    }
}
