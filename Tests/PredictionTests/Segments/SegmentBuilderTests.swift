import Testing

@testable import Prediction

@Suite struct SegmentBuilderTests {
    let classes = ["a", "b"]

    func builder() throws -> SegmentBuilder {
        try SegmentBuilder(classLabels: classes, frameRate: 30, settings: PostprocessingFixtures.settings())
    }

    /// Six predictions every 10 frames at 30 fps over 2-second windows: centres at 1 + k/3 s.
    func predictions() -> [WindowPrediction] {
        PostprocessingFixtures.stream(
            [[0.9, 0.1], [0.7, 0.3], [0.5, 0.5], [0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], classLabels: classes)
    }

    @Test func consecutivePredictionsOfOneLabelBecomeASegmentOfTheirIntervals() throws {
        let segments = try builder().segments(of: predictions(), labels: ["a", "a", nil, "b", "b", "b"])
        #expect(segments.count == 2)
        // h = 10 / 30 / 2 = 1/6 s; a covers predictions 0 and 1: [1 − 1/6, 1 + 1/3 + 1/6).
        #expect(segments[0].label == "a")
        #expect(abs(segments[0].start - 5.0 / 6) < 1e-12)
        #expect(abs(segments[0].end - 1.5) < 1e-12)
        #expect(segments[0].predictions == 0...1)
        #expect(abs(segments[0].meanConfidence - (Double(Float(0.9)) + Double(Float(0.7))) / 2) < 1e-12)
        #expect(segments[1].label == "b")
        #expect(abs(segments[1].start - (1 + 2.5 / 3)) < 1e-12)
        #expect(abs(segments[1].end - (1 + 5.0 / 3 + 1.0 / 6)) < 1e-12)
        #expect(segments[1].predictions == 3...5)
        #expect(abs(segments[1].meanConfidence - (Double(Float(0.8)) + Double(Float(0.6)) + Double(Float(0.9))) / 3) < 1e-12)
    }

    @Test func theMeanConfidenceIsOfTheSegmentsLabelEvenWhereAnotherClassWasOnTop() throws {
        let segments = try builder().segments(of: predictions(), labels: ["b", "b", "b", "b", "b", "b"])
        let expected = [0.1, 0.3, 0.5, 0.8, 0.6, 0.9].map { Double(Float($0)) }.reduce(0, +) / 6
        #expect(segments.count == 1)
        #expect(abs(segments[0].meanConfidence - expected) < 1e-12)
    }

    @Test func adjacentSegmentsMeetExactly() throws {
        var generator = TestGenerator(seed: 5)
        let stream = PostprocessingFixtures.stream((0..<300).map { _ in generator.probabilities(count: 2) }, classLabels: classes)
        let labels: [String?] = (0..<300).map { _ in classes.randomElement(using: &generator) }
        let segments = try builder().segments(of: stream, labels: labels)
        #expect(segments.count > 50)
        for (left, right) in zip(segments, segments.dropFirst()) {
            #expect(left.end == right.start)
            #expect(left.predictions.upperBound + 1 == right.predictions.lowerBound)
        }
        // Together they span from the first centre − h to the last centre + h.
        let h = 1.0 / 6
        #expect(abs((segments.last?.end ?? 0) - (segments.first?.start ?? 0) - (stream[299].centreTime - stream[0].centreTime + 2 * h)) < 1e-9)
    }

    @Test func aMissingPredictionEndsASegment() throws {
        var stream = predictions()
        stream.remove(at: 2)
        let segments = try builder().segments(of: stream, labels: ["a", "a", "a", "a", "a"])
        #expect(segments.map(\.predictions) == [0...1, 3...5])
        #expect(abs(segments[0].end - (1 + 1.0 / 3 + 1.0 / 6)) < 1e-12)
        #expect(abs(segments[1].start - (2 - 1.0 / 6)) < 1e-12)
    }

    @Test func withoutLabelsTheAcceptedOnesAreUsed() throws {
        // Accepted at threshold 0.6: a, a, nil, b, b, b.
        let segments = try builder().segments(of: predictions())
        #expect(segments.map(\.label) == ["a", "b"])
        #expect(segments.map(\.predictions) == [0...1, 3...5])
    }

    @Test func eachPredictionLabelsStrideFramesAtTheModelsRate() throws {
        let frames = try builder().frameLabels(of: predictions(), labels: ["a", "a", nil, "b", "b", "b"], frameCount: 100, frameRate: 30)
        // Prediction k covers frames 25 + 10k ..< 35 + 10k.
        let expected: [String?] = Array(repeating: nil, count: 25) + Array(repeating: "a", count: 20) + Array(repeating: nil, count: 10)
            + Array(repeating: "b", count: 30) + Array(repeating: nil, count: 15)
        #expect(frames == expected)
        // At 60 fps each prediction covers 20 frames.
        let doubled = try builder().frameLabels(of: predictions(), labels: ["a", "a", nil, "b", "b", "b"], frameCount: 200, frameRate: 60)
        #expect(doubled.count { $0 == "a" } == 40)
        #expect(doubled.firstIndex { $0 == "a" } == 50)
        #expect(doubled.firstIndex { $0 == "b" } == 110)
    }

    @Test func badParametersAndLabelsAreErrors() throws {
        #expect(throws: PostprocessingError.self) { try SegmentBuilder(classLabels: classes, frameRate: 0, stride: 10) }
        #expect(throws: PostprocessingError.self) { try SegmentBuilder(classLabels: classes, frameRate: 30, stride: 0) }
        #expect(throws: PostprocessingError.lengthMismatch(what: "labels for the predictions", expected: 6, found: 1)) {
            try builder().segments(of: predictions(), labels: ["a"])
        }
        #expect(throws: PostprocessingError.unknownLabel("c", known: classes)) {
            try builder().segments(of: predictions(), labels: ["c", nil, nil, nil, nil, nil])
        }
    }
}
