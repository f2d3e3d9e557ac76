import AtomicFiles
import Foundation
import Reports

/// The run-level files of `actionlab predict`: `summary.md` (every stream, its segments and
/// events, failed inputs, and the scores over all annotated streams with and without smoothing)
/// and, when some stream was annotated, `evaluation.csv` (per class and overall, both ways).
public struct RunPredictionSummary {
    /// The streams predicted, in input order.
    public var analyses: [StreamAnalysis]
    /// Inputs that failed, with their errors.
    public var failures: [String]
    /// Where the model came from.
    public var modelOrigin: String

    public init(analyses: [StreamAnalysis], failures: [String], modelOrigin: String) {
        self.analyses = analyses
        self.failures = failures
        self.modelOrigin = modelOrigin
    }

    /// The scores pooled over every annotated stream (raw, smoothed), or nil when none was annotated.
    ///
    /// - Throws: ``PostprocessingError`` if the frame labels cannot be scored.
    public func pooledScores() throws -> (raw: TemporalSegmentationScore, smoothed: TemporalSegmentationScore)? {
        let annotated = analyses.filter { $0.evaluation != nil }
        guard !annotated.isEmpty else { return nil }
        let metrics = try TemporalSegmentationMetrics()
        return (
            try metrics.score(annotated.map { ($0.rawFrames, $0.groundTruthFrames) }),
            try metrics.score(annotated.map { ($0.smoothedFrames, $0.groundTruthFrames) })
        )
    }

    /// The names of the run-level files in a predictions folder (``fileNames`` and the folder's
    /// record), which no stream folder may take.
    public static let fileNames = ["summary.md", "evaluation.csv"]

    /// Writes `summary.md` (and `evaluation.csv`) into `folder`.
    ///
    /// - Throws: `ReportError.writeFailed` naming the folder; ``PostprocessingError`` from scoring.
    public func write(to folder: URL) throws {
        var lines = ["# Predictions", "", "- Model: \(modelOrigin)", "- Streams: \(analyses.count); failed inputs: \(failures.count)", ""]
        var table = Table(header: ["stream", "duration (s)", "predictions", "segments", "events"], numericColumns: [1, 2, 3, 4])
        for analysis in analyses {
            table.append([
                analysis.stream.name, NumberFormat.fixed(analysis.stream.duration, digits: 2), "\(analysis.stream.predictions.count)",
                "\(analysis.segments.count)", "\(analysis.events.events.count)",
            ])
        }
        lines.append(table.markdown)
        let pooled = try pooledScores()
        if let pooled {
            lines += ["## Against the annotations", "",
                      "Frame accuracy, segmental F1 at IoU 0.10, 0.25 and 0.50, and edit score (MS-TCN's definitions), pooled over the annotated streams.", "",
                      PredictionReport.scoreTable([("raw", pooled.raw), ("smoothed", pooled.smoothed)]).markdown]
        }
        if !failures.isEmpty {
            lines += ["## Failed inputs", ""] + failures.map { "- \($0)" } + [""]
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let pooled { try AtomicFile.write(Self.evaluationTable(pooled).csv, to: folder.appendingPathComponent(Self.fileNames[1])) }
            try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: folder.appendingPathComponent(Self.fileNames[0]))
        } catch {
            throw ReportError.writeFailed(path: folder.path, reason: ReportError.reason(error))
        }
    }

    /// `evaluation.csv`: one row per (predictions, class), the overall row first with class `all`.
    static func evaluationTable(_ pooled: (raw: TemporalSegmentationScore, smoothed: TemporalSegmentationScore)) -> Table {
        let overlaps = pooled.raw.f1.map(\.overlap)
        var table = Table(header: ["predictions", "class", "frames", "frame_accuracy"] + overlaps.map { "f1@\(NumberFormat.exact($0))" } + ["edit"])
        for (name, score) in [("raw", pooled.raw), ("smoothed", pooled.smoothed)] {
            table.append([name, "all", "\(score.frameCount)", NumberFormat.exact(score.frameAccuracy)]
                + overlaps.map { NumberFormat.exact(score.f1(at: $0) ?? 0) } + [NumberFormat.exact(score.editScore)])
            for perClass in score.perClass {
                table.append([name, perClass.label, "\(perClass.frameCount)", perClass.frameAccuracy.map(NumberFormat.exact) ?? ""]
                    + overlaps.map { perClass.f1(at: $0).map(NumberFormat.exact) ?? "" } + [""])
            }
        }
        return table
    }
}
