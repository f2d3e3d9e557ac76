import AtomicFiles
import Foundation
import Reports

/// The files `actionlab predict` writes for one stream, each written whole (``AtomicFile``):
///
/// - `predictions.csv`: one row per prediction — window times (seconds), first frame, label,
///   confidence, status, share of frames with a pose, padded frames, the smoothed label,
///   confidence and status, the label after hysteresis, and every class probability (`p:LABEL`);
/// - `segments.csv`: one row per segment after smoothing and hysteresis — label, start, end,
///   duration (seconds), mean confidence, its predictions, whether it was counted as an event,
///   and the repetitions the pose's periodicity gives (with the period in seconds);
/// - `counts.csv`: per label, the events (segment entries) and the repetitions inside them;
/// - `timeline.svg`: class probabilities (smoothed) over time, the predicted segments with the
///   counted events, and the annotations as a second lane when there are any;
/// - `summary.md`: the input, the model, the settings, what was found and, with annotations,
///   the scores with and without smoothing.
public struct PredictionReport {
    /// The analysed stream.
    public var analysis: StreamAnalysis
    /// Where the model came from.
    public var modelOrigin: String
    /// The runtime rules used.
    public var settings: PredictionSettings
    /// Smoothing, hysteresis and refractory time used.
    public var postprocessing: PostprocessingSettings

    /// Classes drawn in the timeline: those whose smoothed probability reaches this somewhere (all when at most 8 classes).
    public static let drawnProbability = 0.2

    public init(analysis: StreamAnalysis, modelOrigin: String, settings: PredictionSettings, postprocessing: PostprocessingSettings) {
        self.analysis = analysis
        self.modelOrigin = modelOrigin
        self.settings = settings
        self.postprocessing = postprocessing
    }

    /// The file names written into a stream's folder, in writing order (summary last).
    public static let fileNames = ["predictions.csv", "segments.csv", "counts.csv", "timeline.svg", "summary.md"]

    /// Writes the files into `folder` (created if needed).
    ///
    /// - Returns: The files written.
    /// - Throws: `ReportError.writeFailed` naming the folder when a file cannot be written.
    @discardableResult
    public func write(to folder: URL) throws -> [URL] {
        let contents = [predictionsTable.csv, segmentsTable.csv, countsTable.csv, timeline.svg, summaryMarkdown]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try zip(Self.fileNames, contents).map { name, text in
                let url = folder.appendingPathComponent(name)
                try AtomicFile.write(text, to: url)
                return url
            }
        } catch {
            throw ReportError.writeFailed(path: folder.path, reason: ReportError.reason(error))
        }
    }

    private var stream: StreamPrediction { analysis.stream }

    private static func time(_ value: Double) -> String { NumberFormat.exact((value * 1e6).rounded() / 1e6) }

    /// `predictions.csv`.
    public var predictionsTable: Table {
        var table = Table(
            header: ["index", "start_time", "end_time", "start_frame", "label", "confidence", "status", "pose_fraction", "padded_frames",
                     "smoothed_label", "smoothed_confidence", "smoothed_status", "segment_label"] + stream.labels.map { "p:\($0)" })
        for (position, prediction) in stream.predictions.enumerated() {
            let smoothed = analysis.smoothed[position]
            table.append([
                "\(prediction.index)", Self.time(prediction.startTime), Self.time(prediction.endTime), "\(prediction.startFrame)",
                prediction.label, NumberFormat.exact(Double(prediction.confidence)), prediction.status.rawValue,
                NumberFormat.exact(prediction.poseFraction), "\(prediction.paddedFrames)",
                smoothed.label, NumberFormat.exact(Double(smoothed.confidence)), smoothed.status.rawValue, analysis.labels[position] ?? "",
            ] + prediction.probabilities.map { NumberFormat.exact(Double($0)) })
        }
        return table
    }

    /// Whether segment `index` of ``StreamAnalysis/segments`` was counted as an event.
    private func isCounted(_ segment: ActionSegment) -> Bool {
        analysis.events.events.contains { $0.segment == segment }
    }

    /// `segments.csv`.
    public var segmentsTable: Table {
        var table = Table(header: [
            "segment", "label", "start", "end", "duration", "mean_confidence", "first_prediction", "last_prediction", "counted",
            "repetitions", "period",
        ])
        for (index, segment) in analysis.segments.enumerated() {
            let repetitions = analysis.repetitions[index]
            table.append([
                "\(index)", segment.label, Self.time(segment.start), Self.time(segment.end), Self.time(segment.duration),
                NumberFormat.exact(segment.meanConfidence), "\(segment.predictions.lowerBound)", "\(segment.predictions.upperBound)",
                isCounted(segment) ? "yes" : "no", "\(repetitions.count)", repetitions.period.map(Self.time) ?? "",
            ])
        }
        return table
    }

    /// Events and repetitions per label, labels in the model's order, only those with a segment.
    private var counts: [(label: String, events: Int, repetitions: Int, segments: Int)] {
        stream.labels.compactMap { label in
            let indices = analysis.segments.indices.filter { analysis.segments[$0].label == label }
            guard !indices.isEmpty else { return nil }
            return (label, analysis.events.count(of: label), indices.reduce(0) { $0 + analysis.repetitions[$1].count }, indices.count)
        }
    }

    /// `counts.csv`.
    public var countsTable: Table {
        Table(header: ["label", "events", "repetitions", "segments"], rows: counts.map { ["\($0.label)", "\($0.events)", "\($0.repetitions)", "\($0.segments)"] })
    }

    /// `timeline.svg`.
    public var timeline: TimelineChart {
        let drawn = stream.labels.indices.filter { index in
            stream.labels.count <= 8 || analysis.smoothed.contains { Double($0.probabilities[index]) >= Self.drawnProbability }
        }
        let series = TimelineChart.series(
            labels: drawn.map { stream.labels[$0] }, times: analysis.smoothed.map(\.centreTime),
            probabilities: analysis.smoothed.map { prediction in drawn.map { prediction.probabilities[$0] } })
        var lanes = [TimelineChart.Lane(
            title: "predicted",
            segments: analysis.segments.map { .init(label: $0.label, start: $0.start, end: $0.end, value: $0.meanConfidence) },
            events: analysis.events.events.map { .init(time: $0.time, label: $0.label) })]
        if stream.input.isAnnotated {
            lanes.append(TimelineChart.Lane(
                title: "ground truth",
                segments: stream.input.annotations.map { .init(label: $0.label, start: $0.start, end: $0.end ?? stream.duration) },
                valueLabel: ""))
        }
        let hidden = stream.labels.count - drawn.count
        return TimelineChart(
            title: "\(stream.name): class probabilities over time",
            subtitle: "moving average of \(postprocessing.smoothingWindow) predictions every \(settings.stride) frames at "
                + "\(NumberFormat.exact(stream.frameRate)) fps" + (hidden > 0 ? "; \(hidden) classes that never reach "
                + "\(NumberFormat.exact(Self.drawnProbability)) not drawn" : ""),
            classes: series, threshold: Double(settings.confidenceThreshold), lanes: lanes, duration: stream.duration)
    }

    /// `summary.md`.
    public var summaryMarkdown: String {
        let byStatus = WindowPrediction.Status.allCases.map { status in
            "\(stream.predictions.filter { $0.status == status }.count) \(status.rawValue)"
        }.joined(separator: ", ")
        var lines = [
            "# Predictions: \(stream.name)", "",
            "- Input: \(stream.input.origin) (\(stream.input.source.format.rawValue))",
            "- Model: \(modelOrigin)",
            "- Stream: \(stream.frameCount) frames at \(NumberFormat.exact(stream.frameRate)) fps (\(NumberFormat.fixed(stream.duration, digits: 2)) s)",
            "- Windows: a prediction every \(settings.stride) frames; below \(settings.confidenceThreshold) "
                + "confidence `lowConfidence`, under \(NumberFormat.exact(settings.minimumPoseFraction * 100)) % of frames with a pose `noPerson`",
            "- Smoothing: moving average of \(postprocessing.smoothingWindow) predictions; a label holds \(postprocessing.holdCount) "
                + "predictions to start or end a segment; refractory time \(NumberFormat.exact(postprocessing.refractoryTime)) s",
            "- Predictions: \(stream.predictions.count) (\(byStatus))",
        ]
        lines += stream.notes.map { "- Note: \($0)" }
        lines += ["", "## Segments", ""]
        if analysis.segments.isEmpty {
            lines.append("No segment: no label was accepted for \(postprocessing.holdCount) predictions in a row.")
        } else {
            var table = Table(header: ["label", "start (s)", "end (s)", "mean confidence", "counted", "repetitions"], numericColumns: [1, 2, 3, 5])
            for (index, segment) in analysis.segments.enumerated() {
                table.append([
                    segment.label, NumberFormat.fixed(segment.start, digits: 2), NumberFormat.fixed(segment.end, digits: 2),
                    NumberFormat.fixed(segment.meanConfidence, digits: 3), isCounted(segment) ? "yes" : "no", "\(analysis.repetitions[index].count)",
                ])
            }
            lines.append(table.markdown)
            lines += ["## Counts", "", "Events: one per segment entry, not again within the refractory time. Repetitions: "
                + "the periods of the pose's own motion inside the segments.", ""]
            lines.append(countsTable.markdown)
        }
        if let evaluation = analysis.evaluation {
            lines += ["## Against the annotations", "", Self.scoreTable([("raw", evaluation.raw), ("smoothed", evaluation.smoothed)]).markdown]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Frame accuracy, F1 at each overlap and edit score, one row per named score (percent).
    public static func scoreTable(_ scores: [(name: String, score: TemporalSegmentationScore)]) -> Table {
        let overlaps = scores.first?.score.f1.map(\.overlap) ?? TemporalSegmentationMetrics.standardOverlaps
        var table = Table(
            header: ["predictions", "frame accuracy (%)"] + overlaps.map { "F1@\(NumberFormat.exact($0)) (%)" } + ["edit (%)", "streams", "frames"],
            numericColumns: Set(1...(overlaps.count + 4)))
        for (name, score) in scores {
            table.append([name, NumberFormat.fixed(score.frameAccuracy, digits: 1)]
                + overlaps.map { NumberFormat.fixed(score.f1(at: $0) ?? 0, digits: 1) }
                + [NumberFormat.fixed(score.editScore, digits: 1), "\(score.sequenceCount)", "\(score.frameCount)"])
        }
        return table
    }
}
