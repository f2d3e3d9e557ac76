import Testing

@testable import Prediction

@Suite struct MovingAverageSmootherTests {
    let classes = ["squat", "jump", "idle"]

    @Test func aWindowOfOneReturnsItsInputBitForBit() throws {
        var generator = TestGenerator(seed: 1)
        var predictions = PostprocessingFixtures.stream((0..<40).map { _ in generator.probabilities(count: 3) }, classLabels: classes)
        predictions[7].status = .noPerson
        let smoothed = try MovingAverageSmoother(window: 1).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        #expect(smoothed == predictions)
        #expect(zip(smoothed, predictions).allSatisfy { $0.probabilities.map(\.bitPattern) == $1.probabilities.map(\.bitPattern) })
    }

    @Test func eachPredictionIsTheMeanOfTheLastK() throws {
        let predictions = PostprocessingFixtures.stream(
            [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]], classLabels: classes)
        let smoothed = try MovingAverageSmoother(window: 3).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        // Means in Double, rounded to Float once.
        func mean(_ rows: [[Float]]) -> [Float] {
            (0..<3).map { label in Float(rows.reduce(0.0) { $0 + Double($1[label]) } / Double(rows.count)) }
        }
        let raw = predictions.map(\.probabilities)
        #expect(smoothed.map(\.probabilities) == [raw[0], mean(Array(raw[0...1])), mean(Array(raw[0...2])), mean(Array(raw[1...3]))])
        // Means of the top class: (0.9 + 0.1) / 2 = 0.5 (squat over jump's 0.425), then jump's
        // (0.05 + 0.8 + 0.7) / 3 = 0.517 and (0.8 + 0.7 + 0.1) / 3 = 0.533: all but the first below 0.6.
        #expect(smoothed.map(\.label) == ["squat", "squat", "jump", "jump"])
        #expect(smoothed.map(\.labelIndex) == [0, 0, 1, 1])
        #expect(smoothed[1].confidence == mean(Array(raw[0...1]))[0])
        #expect(smoothed[3].confidence == mean(Array(raw[1...3]))[1])
        #expect(smoothed.map(\.status) == [.ok, .lowConfidence, .lowConfidence, .lowConfidence])
        #expect(smoothed.map(\.index) == [0, 1, 2, 3])
        #expect(smoothed.map(\.startTime) == predictions.map(\.startTime))
    }

    @Test func theMeanCanCrownAClassThatTopsNoSinglePrediction() throws {
        let predictions = PostprocessingFixtures.stream([[0.5, 0.4, 0.1], [0.1, 0.4, 0.5]], classLabels: classes, threshold: 0.3)
        let smoothed = try MovingAverageSmoother(window: 2).smoothed(
            predictions, classLabels: classes, settings: PostprocessingFixtures.settings(threshold: 0.3))
        #expect(smoothed[1].label == "jump")
        #expect(smoothed[1].labelIndex == 1)
        #expect(smoothed[1].status == .ok)
    }

    @Test func aConfidentAverageLiftsALowConfidencePrediction() throws {
        let predictions = PostprocessingFixtures.stream([[0.9, 0.05, 0.05], [0.5, 0.3, 0.2]], classLabels: classes)
        #expect(predictions[1].status == .lowConfidence)
        let smoothed = try MovingAverageSmoother(window: 2).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        #expect(smoothed[1].status == .ok)
        #expect(smoothed[1].confidence == Float((Double(Float(0.9)) + Double(Float(0.5))) / 2))
    }

    @Test func predictionsWithoutAPersonStayAsTheyAreAndAreLeftOutOfTheMean() throws {
        var predictions = PostprocessingFixtures.stream(
            [[0.8, 0.1, 0.1], [0.7, 0.2, 0.1], [0.0, 0.0, 1.0], [0.9, 0.05, 0.05]], classLabels: classes)
        predictions[2].status = .noPerson
        let smoothed = try MovingAverageSmoother(window: 3).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        #expect(smoothed[2] == predictions[2])
        // Prediction 3 averages 1 and 3 (2 had no person), not 1, 2 and 3.
        let expected = (0..<3).map { Float((Double(predictions[1].probabilities[$0]) + Double(predictions[3].probabilities[$0])) / 2) }
        #expect(smoothed[3].probabilities == expected)
        #expect(smoothed[3].label == "squat")
        #expect(smoothed[3].status == .ok)
    }

    @Test func theAverageNeverReachesBackPastKPredictions() throws {
        var predictions = PostprocessingFixtures.stream(
            [[0.9, 0.05, 0.05], [0.3, 0.3, 0.4], [0.3, 0.3, 0.4], [0.1, 0.8, 0.1]], classLabels: classes)
        predictions[1].status = .noPerson
        predictions[2].status = .noPerson
        let smoothed = try MovingAverageSmoother(window: 3).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        // Only prediction 3 holds a person among 1...3: prediction 0 is more than K back.
        #expect(smoothed[3].probabilities == predictions[3].probabilities)
        #expect(smoothed[3].label == "jump")
    }

    @Test func aWindowBelowOneAndMismatchedProbabilitiesAreErrors() throws {
        #expect(throws: PostprocessingError.invalidParameter(name: "smoothing window", value: "0", reason: "must be at least 1 prediction")) {
            try MovingAverageSmoother(window: 0)
        }
        let predictions = PostprocessingFixtures.stream([[0.5, 0.5]], classLabels: ["a", "b"])
        #expect(throws: PostprocessingError.probabilityCountMismatch(predictionIndex: 0, expected: 3, found: 2)) {
            try MovingAverageSmoother(window: 2).smoothed(predictions, classLabels: classes, settings: PostprocessingFixtures.settings())
        }
    }
}
