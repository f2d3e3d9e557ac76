import Testing

@testable import Prediction

@Suite struct HysteresisFilterTests {
    /// Labels from a compact spelling: one character per prediction, `.` = nil.
    func labels(_ spelling: String) -> [String?] {
        spelling.map { $0 == "." ? nil : String($0) }
    }

    @Test(arguments: [
        // (hold count, input, output)
        (2, "AAABAA", "AAAAAA"),
        (2, ".A..", "...."),
        (3, ".AA.AAA", "....AAA"),
        (3, "AAA..AA", "AAAAAAA"),
        (3, "AAA...B", "AAA...."),
        (2, "AAABBCC", "AAABBCC"),
        (2, "AABCCC", "AAACCC"),
        (3, "AAAABBBAAAA", "AAAABBBAAAA"),
        (4, "AAAABBBAAAA", "AAAAAAAAAAA"),
        (2, "", ""),
    ])
    func aLabelMustHoldMPredictionsToStartOrEndASegment(holdCount: Int, input: String, output: String) throws {
        #expect(try HysteresisFilter(holdCount: holdCount).filtered(labels(input)) == labels(output))
    }

    @Test func aHoldCountOfOneReturnsItsInput() throws {
        var generator = TestGenerator(seed: 3)
        let input: [String?] = (0..<200).map { _ in ["a", "b", nil].randomElement(using: &generator) ?? nil }
        #expect(try HysteresisFilter(holdCount: 1).filtered(input) == input)
    }

    @Test func everySegmentItStartsHoldsAtLeastMPredictions() throws {
        var generator = TestGenerator(seed: 4)
        let input: [String?] = (0..<500).map { _ in ["a", "b", nil, nil].randomElement(using: &generator) ?? nil }
        let output = try HysteresisFilter(holdCount: 3).filtered(input)
        // Each change of the output's label begins a run of at least 3 equal input labels.
        for position in output.indices.dropFirst() where output[position] != output[position - 1] {
            #expect(input[position..<(position + 3)].allSatisfy { $0 == output[position] })
        }
    }

    @Test func itReadsThePredictionsAcceptedLabels() throws {
        let classes = ["a", "b"]
        let predictions = PostprocessingFixtures.stream([[0.9, 0.1], [0.9, 0.1], [0.55, 0.45], [0.9, 0.1]], classLabels: classes)
        #expect(try HysteresisFilter(holdCount: 2).filtered(predictions) == ["a", "a", "a", "a"])
    }

    @Test func aHoldCountBelowOneIsAnError() {
        #expect(throws: PostprocessingError.self) { try HysteresisFilter(holdCount: 0) }
    }
}
