import ActionLabTestSupport
import Foundation
import Sweeps
import Testing
import Training

/// The window probabilities a trial writes for stream ensembles (`scores/<split>.csv`): the
/// weighted late fusion, the file round trip, and damaged files named by file and line.
@Suite struct WindowScoresTests {
    /// Three windows of two recordings, three classes.
    static func scores(_ probabilities: [Float]) -> WindowScores {
        WindowScores(
            labels: ["wave", "clap", "throw"], probabilities: probabilities, labelIndices: [0, 0, 2], sequenceIndices: [0, 0, 1],
            sequenceIDs: ["a1_s2_t1", "a5_s2_t1"], sequenceLabelIndices: [0, 2])
    }

    @Test func fusionIsTheWeightedMeanOfTheProbabilities() throws {
        let a = Self.scores([0.6, 0.3, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8])
        let b = Self.scores([0.0, 1.0, 0.0, 0.9, 0.1, 0.0, 0.3, 0.3, 0.4])
        let fused = try #require(WindowScores.fused([(a, 2), (b, 1)]))
        let expected: [Float] = [0.4, 0.5333333, 0.0666667, 0.4333333, 0.5, 0.0666667, 0.1666667, 0.1666667, 0.6666667]
        #expect(zip(fused.probabilities, expected).allSatisfy { abs($0 - $1) < 1e-6 })
        let metrics = Evaluator(batchSize: 1, aggregation: .mean).metrics(of: fused, loss: nil)
        // Windows: clap (wrong), clap (wrong), throw (right); recordings: wave's mean favours clap.
        #expect(abs(metrics.window.accuracy - 1.0 / 3) < 1e-12 && metrics.sequence.accuracy == 0.5)
        // Windows that differ, or weights that sum to nothing, do not fuse.
        var other = b
        other.labelIndices = [1, 0, 2]
        #expect(WindowScores.fused([(a, 1), (other, 1)]) == nil)
        #expect(WindowScores.fused([(a, 0), (b, 0)]) == nil)
        #expect(WindowScores.fused([]) == nil)
    }

    @Test func theFileReadsBackBitForBit() throws {
        let scores = Self.scores([0.6, 0.3, 0.1, 1.0 / 3, 0.6666667, 1e-9, 0.1, 0.1, 0.8])
        let scratch = try TemporaryDirectory()
        let url = scratch.file("test.csv")
        try scores.csvTable.csv.write(to: url, atomically: true, encoding: .utf8)
        let read = try WindowScores(contentsOf: url)
        #expect(read == scores && read.problems.isEmpty)
    }

    /// Class columns are `p:<class>`, as in predict's `predictions.csv`: classes named `label`
    /// and `window` gave a header with a name twice (pandas renamed one `label.1`). Files written
    /// before, with bare class names, read the same.
    @Test func classColumnsArePrefixedAndOldFilesStillRead() throws {
        var scores = Self.scores([0.6, 0.3, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8])
        scores.labels = ["label", "window", "throw"]
        let scratch = try TemporaryDirectory()
        let url = scratch.file("test.csv")
        let csv = scores.csvTable.csv
        #expect(csv.hasPrefix("window,recording,recording_label,label,p:label,p:window,p:throw\n"), "\(csv)")
        try csv.write(to: url, atomically: true, encoding: .utf8)
        #expect(try WindowScores(contentsOf: url) == scores)
        let old = scratch.file("old.csv")
        try csv.replacingOccurrences(of: "p:", with: "").write(to: old, atomically: true, encoding: .utf8)
        #expect(try WindowScores(contentsOf: old) == scores)
    }

    @Test(arguments: [
        ("window,recording,label\n", "line 1: expected the columns window, recording, recording_label, label"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,jump,0.5,0.5\n", "line 2: label 'jump'"),
        ("window,recording,recording_label,label,wave,clap\n1,r,wave,wave,0.5,0.5\n", "line 2: window '1', expected 0"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,wave,0.5,NaN\n", "line 2, column 'clap': 'NaN' is not a probability"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,wave,1.5,0\n", "line 2, column 'wave': '1.5' is not a probability"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,wave,0.5,0.5\n1,r,wave,wave,0.5,0.4\n",
         "line 3: the class probabilities sum to 0.9"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,wave,0.5,0.5\n1,r,clap,clap,0.5,0.5\n",
         "line 3: recording 'r' has label 'clap' here and 'wave' before"),
        ("window,recording,recording_label,label,wave,clap\n0,r,wave,wave,0.5\n", "line 2"),
    ])
    func aDamagedFileIsNamedWithItsLine(text: String, message: String) throws {
        let scratch = try TemporaryDirectory()
        let url = scratch.file("validation.csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try WindowScores(contentsOf: url)
        } throws: { error in
            "\(error)".hasPrefix(url.path + ": ") && "\(error)".contains(message)
        }
    }
}
