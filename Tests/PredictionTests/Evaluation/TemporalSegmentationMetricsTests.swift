import ActionLabTestSupport
import Foundation
import Testing

@testable import Prediction

@Suite struct TemporalSegmentationMetricsTests {
    /// Frame labels from a compact spelling: one character per frame, `.` = background (nil).
    func frames(_ spelling: String) -> [String?] {
        spelling.map { $0 == "." ? nil : String($0) }
    }

    func counts(_ f1: SegmentalF1) -> [Int] {
        [f1.truePositives, f1.falsePositives, f1.falseNegatives]
    }

    func close(_ a: Double?, _ b: Double, tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    /// Ground truth a[0,4) b[4,8) c[11,12); prediction a[0,3) b[3,8) c[8,12).
    /// IoUs: a 3/4, b 4/5, c 1/4. Frames right: 3 + 4 + 1 of 12.
    @Test func aHandWorkedStream() throws {
        let score = try TemporalSegmentationMetrics().score(predicted: frames("aaabbbbbcccc"), groundTruth: frames("aaaabbbb...c"))
        #expect(score.frameCount == 12)
        #expect(close(score.frameAccuracy, 100 * 8 / 12))
        #expect(score.editScore == 100)
        #expect(score.f1.map(\.overlap) == [0.10, 0.25, 0.50])
        #expect(score.f1(at: 0.10) == 100)
        #expect(score.f1(at: 0.25) == 100)  // c's IoU is exactly 0.25, which counts
        let half = try #require(score.f1.last)
        #expect(counts(half) == [2, 1, 1])
        #expect(close(half.f1, 100 * 2.0 / 3))
        #expect(close(half.precision, 100 * 2.0 / 3))
        #expect(score.perClass.map(\.label) == ["a", "b", "c"])
        #expect(score.perClass.map(\.frameCount) == [4, 4, 1])
        #expect(score.perClass.map(\.frameAccuracy) == [75, 100, 100])
        #expect(score.perClass.map { $0.f1(at: 0.5) } == [100, 100, 0])
    }

    /// One ground-truth segment split in two by the prediction: the second half matches the
    /// same ground-truth segment, which is taken, so it is a false positive; edit 1 − 1/2.
    @Test func aSplitSegmentCountsOnceAndCostsEdit() throws {
        let score = try TemporalSegmentationMetrics().score(predicted: frames("aa.aa"), groundTruth: frames("aaaaa"))
        #expect(close(score.frameAccuracy, 80))
        #expect(score.editScore == 50)
        let low = try #require(score.f1.first)
        #expect(counts(low) == [1, 1, 0])
        #expect(close(low.f1, 100 * 2.0 / 3))
        #expect(score.f1(at: 0.5) == 0)  // IoU 2/5 < 0.5
    }

    @Test func streamsPoolFramesAndSegmentCountsAndAverageTheEditScore() throws {
        let metrics = try TemporalSegmentationMetrics()
        let score = try metrics.score([(frames("aaabbbbbcccc"), frames("aaaabbbb...c")), (frames("aa.aa"), frames("aaaaa"))])
        #expect(score.sequenceCount == 2)
        #expect(score.frameCount == 17)
        #expect(close(score.frameAccuracy, 100 * 12.0 / 17))
        #expect(score.editScore == 75)
        let low = try #require(score.f1.first)
        #expect(counts(low) == [4, 1, 0])
        #expect(score.perClass.first { $0.label == "a" }?.frameCount == 9)
    }

    @Test func backgroundLabelsAreOneBackgroundAndNeverSegments() throws {
        let score = try TemporalSegmentationMetrics().score(
            predicted: ["none", "none", "a", "a", nil, "background"], groundTruth: [nil, "none", "a", "a", "background", nil])
        #expect(score.frameAccuracy == 100)
        #expect(score.editScore == 100)
        #expect(score.f1.allSatisfy { $0.f1 == 100 && $0.truePositives == 1 })
        #expect(score.perClass.map(\.label) == ["a"])
        // With no background names, "none" is a class of its own.
        let strict = try TemporalSegmentationMetrics(backgroundLabels: []).score(
            predicted: ["none", "none", "a", "a"], groundTruth: [nil, "none", "a", "a"])
        #expect(strict.frameAccuracy == 75)
        #expect(strict.perClass.map(\.label) == ["a", "none"])
    }

    @Test func streamsWithoutSegmentsScoreAPerfectEditAndNoF1() throws {
        let score = try TemporalSegmentationMetrics().score(predicted: [nil, nil], groundTruth: ["none", nil])
        #expect(score.editScore == 100)
        #expect(score.frameAccuracy == 100)
        #expect(score.f1.allSatisfy { $0.f1 == 0 })
        let wrong = try TemporalSegmentationMetrics().score(predicted: frames("bbb"), groundTruth: frames("aaa"))
        #expect(wrong.editScore == 0)
        #expect(wrong.frameAccuracy == 0)
        #expect(wrong.f1.allSatisfy { $0.f1 == 0 && $0.falsePositives == 1 && $0.falseNegatives == 1 })
    }

    @Test func perClassCountsAddUpToTheOverallCounts() throws {
        var generator = TestGenerator(seed: 8)
        let streams = (0..<10).map { _ in Self.randomStream(using: &generator) }
        let score = try TemporalSegmentationMetrics().score(streams)
        for (position, overall) in score.f1.enumerated() {
            #expect(score.perClass.map { $0.f1[position].truePositives }.reduce(0, +) == overall.truePositives)
            #expect(score.perClass.map { $0.f1[position].falsePositives }.reduce(0, +) == overall.falsePositives)
            #expect(score.perClass.map { $0.f1[position].falseNegatives }.reduce(0, +) == overall.falseNegatives)
        }
    }

    @Test func mismatchedOrEmptyStreamsAndBadThresholdsAreErrors() throws {
        let metrics = try TemporalSegmentationMetrics()
        #expect(throws: PostprocessingError.lengthMismatch(what: "predicted frame labels of stream 0", expected: 3, found: 2)) {
            try metrics.score(predicted: ["a", "a"], groundTruth: ["a", "a", "a"])
        }
        #expect(throws: PostprocessingError.self) { try metrics.score(predicted: [], groundTruth: []) }
        #expect(throws: PostprocessingError.self) { try metrics.score([]) }
        #expect(throws: PostprocessingError.self) { try TemporalSegmentationMetrics(overlaps: [0]) }
        #expect(throws: PostprocessingError.self) { try TemporalSegmentationMetrics(overlaps: [1.5]) }
    }

    /// A ground truth of runs and a prediction that shifts its boundaries, swaps, drops and inserts segments.
    static func randomStream(using generator: inout TestGenerator) -> (predicted: [String?], groundTruth: [String?]) {
        let labels: [String?] = [nil, "a", "b", "c", "none"]
        var truth: [String?] = []
        while truth.count < 150 {
            let label = labels.randomElement(using: &generator) ?? nil
            truth += Array(repeating: label, count: Int.random(in: 1...25, using: &generator))
        }
        var predicted = truth
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            let start = Int.random(in: 0..<truth.count, using: &generator)
            let end = min(truth.count, start + Int.random(in: 1...12, using: &generator))
            let label = labels.randomElement(using: &generator) ?? nil
            for frame in start..<end { predicted[frame] = label }
        }
        return (predicted, truth)
    }

    /// An independent Python implementation of MS-TCN's definitions (eval.py: frame accuracy over all
    /// frames, edit score per stream averaged, F1 from pooled counts), written from the paper's
    /// definitions, scores the same random streams; every number agrees within 1e-9.
    @Test func aPythonImplementationOfMSTCNsDefinitionsAgrees() throws {
        guard try PythonOracle.requireModules(["numpy"]) else { return }
        var generator = TestGenerator(seed: 2019)
        let cases = (0..<25).map { _ in (0..<Int.random(in: 1...6, using: &generator)).map { _ in Self.randomStream(using: &generator) } }
        func json(_ labels: [String?]) -> [Any] {
            labels.map { label -> Any in
                if let label { return label }
                return NSNull()
            }
        }
        let input = cases.map { streams in streams.map { ["predicted": json($0.predicted), "truth": json($0.groundTruth)] } }
        let directory = try TemporaryDirectory()
        let url = directory.file("streams.json")
        try JSONSerialization.data(withJSONObject: input).write(to: url)
        let script = """
            import json, sys
            import numpy as np
            BACKGROUND = {None, "none", "background"}
            OVERLAPS = [0.10, 0.25, 0.50]

            def runs(labels):
                out, start = [], 0
                for i in range(1, len(labels) + 1):
                    if i == len(labels) or labels[i] != labels[start]:
                        if labels[start] is not None:
                            out.append((labels[start], start, i))
                        start = i
                return out

            def levenshtein(a, b):
                d = np.zeros((len(a) + 1, len(b) + 1))
                d[:, 0] = np.arange(len(a) + 1)
                d[0, :] = np.arange(len(b) + 1)
                for i in range(1, len(a) + 1):
                    for j in range(1, len(b) + 1):
                        d[i, j] = d[i - 1, j - 1] if a[i - 1] == b[j - 1] else 1 + min(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1])
                return d[-1, -1]

            def edit(p, g):
                longest = max(len(p), len(g))
                return 100.0 if longest == 0 else (1 - levenshtein(p, g) / longest) * 100

            def counts(p, g, overlap):
                hit = [False] * len(g)
                tp = fp = 0
                for (label, s, e) in p:
                    ious = np.array([(min(e, ge) - max(s, gs)) / (max(e, ge) - min(s, gs)) if label == gl else 0.0 for (gl, gs, ge) in g])
                    best = int(np.argmax(ious)) if len(g) else -1
                    if best >= 0 and ious[best] >= overlap and not hit[best]:
                        tp += 1
                        hit[best] = True
                    else:
                        fp += 1
                return tp, fp, len(g) - sum(hit)

            def f1(tp, fp, fn):
                with np.errstate(divide="ignore", invalid="ignore"):
                    precision = np.float64(tp) / (tp + fp)
                    recall = np.float64(tp) / (tp + fn)
                    return float(np.nan_to_num(2.0 * precision * recall / (precision + recall)) * 100)

            results = []
            for streams in json.load(open(sys.argv[1])):
                correct = total = 0
                edits = []
                pooled = {o: [0, 0, 0] for o in OVERLAPS}
                classes = {}
                for stream in streams:
                    p = [None if x in BACKGROUND else x for x in stream["predicted"]]
                    g = [None if x in BACKGROUND else x for x in stream["truth"]]
                    total += len(g)
                    correct += sum(a == b for a, b in zip(p, g))
                    for a, b in zip(p, g):
                        if b is not None:
                            c = classes.setdefault(b, {"frames": 0, "correct": 0, "counts": {o: [0, 0, 0] for o in OVERLAPS}})
                            c["frames"] += 1
                            c["correct"] += a == b
                    pr, gr = runs(p), runs(g)
                    edits.append(edit([r[0] for r in pr], [r[0] for r in gr]))
                    for o in OVERLAPS:
                        for k, v in enumerate(counts(pr, gr, o)):
                            pooled[o][k] += v
                    for label in set(r[0] for r in pr + gr):
                        c = classes.setdefault(label, {"frames": 0, "correct": 0, "counts": {o: [0, 0, 0] for o in OVERLAPS}})
                        for o in OVERLAPS:
                            for k, v in enumerate(counts([r for r in pr if r[0] == label], [r for r in gr if r[0] == label], o)):
                                c["counts"][o][k] += v
                results.append({
                    "accuracy": 100.0 * correct / total,
                    "edit": float(np.mean(edits)),
                    "f1": [f1(*pooled[o]) for o in OVERLAPS],
                    "counts": [pooled[o] for o in OVERLAPS],
                    "classes": {label: {
                        "frame_accuracy": 100.0 * c["correct"] / c["frames"] if c["frames"] else None,
                        "f1": [f1(*c["counts"][o]) for o in OVERLAPS],
                    } for label, c in classes.items()},
                })
            print(json.dumps(results))
            """
        let reference = try #require(try PythonOracle.json(script, arguments: [url.path]) as? [[String: Any]])
        try #require(reference.count == cases.count)
        let metrics = try TemporalSegmentationMetrics()
        for (number, (streams, expected)) in zip(cases, reference).enumerated() {
            let score = try metrics.score(streams)
            #expect(close(score.frameAccuracy, try #require(expected["accuracy"] as? Double)), "case \(number)")
            #expect(close(score.editScore, try #require(expected["edit"] as? Double)), "case \(number)")
            let f1 = try #require(expected["f1"] as? [Double])
            #expect(zip(score.f1, f1).allSatisfy { close($0.f1, $1) }, "case \(number): \(score.f1.map(\.f1)) vs \(f1)")
            let counts = try #require(expected["counts"] as? [[Int]])
            #expect(score.f1.map(self.counts) == counts, "case \(number)")
            let classes = try #require(expected["classes"] as? [String: [String: Any]])
            #expect(score.perClass.map(\.label) == classes.keys.sorted(), "case \(number)")
            for perClass in score.perClass {
                let reference = try #require(classes[perClass.label])
                if let accuracy = reference["frame_accuracy"] as? Double {
                    #expect(close(perClass.frameAccuracy, accuracy), "case \(number) class \(perClass.label)")
                } else {
                    #expect(perClass.frameAccuracy == nil, "case \(number) class \(perClass.label)")
                }
                let classF1 = try #require(reference["f1"] as? [Double])
                #expect(zip(perClass.f1, classF1).allSatisfy { close($0.f1, $1) }, "case \(number) class \(perClass.label)")
            }
        }
    }
}
