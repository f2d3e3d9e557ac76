import Testing
import Training

@Suite struct ConfusionMatrixTests {
    /// y_true = [a, a, a, b, b, c], y_pred = [a, a, b, b, c, c]; expected values from
    /// scikit-learn 1.5 `precision_recall_fscore_support(..., zero_division=0)` and `f1_score(average="macro")`.
    func example() -> ConfusionMatrix {
        var matrix = ConfusionMatrix(labels: ["a", "b", "c"])
        for (t, p) in [(0, 0), (0, 0), (0, 1), (1, 1), (1, 2), (2, 2)] { matrix.record(trueIndex: t, predictedIndex: p) }
        return matrix
    }

    @Test func countsRowsTrueColumnsPredicted() {
        #expect(example().counts == [[2, 1, 0], [0, 1, 1], [0, 0, 1]])
        #expect(example().total == 6)
    }

    @Test func accuracyPrecisionRecallF1MatchScikitLearn() {
        let matrix = example()
        #expect(abs(matrix.accuracy - 4.0 / 6.0) < 1e-12)
        let expected: [(precision: Double, recall: Double, f1: Double, support: Int)] = [
            (1.0, 2.0 / 3.0, 0.8, 3), (0.5, 0.5, 0.5, 2), (0.5, 1.0, 2.0 / 3.0, 1),
        ]
        for (index, want) in expected.enumerated() {
            let got = matrix.scores(ofClass: index)
            #expect(abs(got.precision - want.precision) < 1e-12)
            #expect(abs(got.recall - want.recall) < 1e-12)
            #expect(abs(got.f1 - want.f1) < 1e-12)
            #expect(got.support == want.support)
        }
        #expect(abs(matrix.macroF1 - (0.8 + 0.5 + 2.0 / 3.0) / 3.0) < 1e-12)
    }

    @Test func classNeverPredictedHasZeroPrecisionAndClassAbsentIsLeftOutOfMacroF1() {
        var matrix = ConfusionMatrix(labels: ["a", "b", "unused"])
        matrix.record(trueIndex: 0, predictedIndex: 0)
        matrix.record(trueIndex: 1, predictedIndex: 0)
        #expect(matrix.scores(ofClass: 1).precision == 0)
        #expect(matrix.scores(ofClass: 1).f1 == 0)
        // F1 of a = 2 * 0.5 * 1 / 1.5 = 2/3; b = 0; 'unused' never occurs.
        #expect(abs(matrix.macroF1 - (2.0 / 3.0) / 2.0) < 1e-12)
    }

    @Test func emptyMatrixScoresZero() {
        let matrix = ConfusionMatrix(labels: ["a"])
        #expect(matrix.accuracy == 0)
        #expect(matrix.macroF1 == 0)
    }
}
