import Dataset
import FeatureCache
import Foundation
import Manifest
import Pose
import Prediction
import Reports
import Video

/// `actionlab predict MODEL INPUT... [--output DIR] [--stride N] [--threshold P] ...`: runs a
/// trained model over videos, keypoint files or montage annotations with a sliding window, and
/// writes per stream `predictions.csv`, `segments.csv`, `counts.csv`, `timeline.svg` and
/// `summary.md`, and for the run `summary.md` (with the scores when annotations were given).
/// Prints the output folder; with `--json`, one JSON line per prediction on standard output.
enum PredictCommand: Subcommand {
    static let model = PositionalArgument(
        "MODEL", help: "an export folder (actionlab export, or export --ensemble: the streams run fused), a trial folder, or a sweep "
            + "folder (its best trial, by export's rule)")
    static let live = CommandOption.text(
        "live", valueName: "URL",
        help: "predict on a live stream FFmpeg opens (udp://, rtp://, http://, a named pipe, a V4L2 camera such as "
            + "/dev/video0) in real time instead of INPUT files: when pose estimation falls behind, the oldest waiting frames "
            + "are dropped; prints each prediction as it is made, then frames processed and dropped and the latency")
    static let inputFormat = CommandOption.text(
        "input-format", valueName: "FORMAT", help: "with --live: FFmpeg's input format when it cannot be guessed (mpegts, video4linux2, ...)")
    static let inputs = PositionalArgument(
        "INPUT", help: "videos, pictures, keypoint files (.csv, .json, .mat, .ts), OpenPose folders, folders of these, or "
            + "montage annotations (.csv or .json with file_name, label, start_time, end_time: the named files with their "
            + "annotations as ground truth)", isRepeated: true, optionalWith: live)
    static let output = CommandOption.text(
        "output", valueName: "DIR", help: "the folder to write into, one subfolder per stream (default: predictions)")
    static let stride = CommandOption.positiveInteger(
        "stride", valueName: "N",
        help: "frames between predictions at the model's frame rate (default: a third of a second, 10 frames at 30 fps, as Create ML's sample)")
    static let threshold = CommandOption<Double>.number(
        "threshold", valueName: "P", help: "below this top-class probability a prediction is lowConfidence (default 0.6)")
    static let minimumPose = CommandOption<Double>.number(
        "min-pose", valueName: "P", help: "below this share of a window's frames with a pose it is noPerson (default 0.6)")
    static let smoothing = CommandOption.positiveInteger(
        "smoothing", valueName: "K", help: "predictions in the moving average of probabilities (default 3; 1 = none)")
    static let hold = CommandOption.positiveInteger(
        "hold", valueName: "M", help: "predictions a label must hold to start or end a segment (default 2; 1 = none)")
    static let refractory = CommandOption<Double>.number(
        "refractory", valueName: "SECONDS",
        help: "after a counted segment, a new one of the same label within this time is not counted again (default 1)")
    static let windowDuration = CommandOption<Double>.number(
        "window-duration", valueName: "SECONDS",
        help: "for a model trained with uniform sampling (one recording per window): the seconds one window covers")
    static let cache = CommandOption.text(
        "cache", valueName: "DIR", help: "the feature cache inputs are read through (default: the model's features.cache)")
    static let workers = CommandOption.positiveInteger(
        "workers", valueName: "N",
        help: "video inputs whose poses are extracted at once before predicting, each with its own pose landmarker "
            + "(default the model's features.workers, else the processors available); the poses are identical whatever N")
    static let json = CommandOption.flag("json", help: "print one JSON line per prediction on standard output, then the output folder")

    static let specification = CommandSpecification(
        name: "predict",
        abstract: "run a trained model over new inputs with a sliding window (stride, confidence threshold, no-person rule), "
            + "smooth, segment and count, and write per stream predictions.csv, segments.csv, counts.csv, timeline.svg and "
            + "summary.md, with scores against montage annotations; print the output folder",
        discussion: [
            "Inputs are read through the feature cache as a training run reads them, resampled on their timestamps to the "
                + "model's frame rate, and cut into the model's windows; a window the trainer saw gets the same probabilities. "
                + "An input shorter than one window is padded with zero frames as in training, and its summary says so. One "
                + "input that cannot be read fails that input (exit status 1 after the others are written).",
            "Counting: events are segment entries (one per performance, not again within --refractory seconds); "
                + "repetitions are counted inside each segment from the periodicity of the pose itself.",
        ],
        arguments: [model, inputs],
        options: [output, stride, threshold, minimumPose, smoothing, hold, refractory, windowDuration, cache, workers, json, live, inputFormat])

    static func main(_ arguments: ArraySlice<String>) -> Int32 {
        Console.exitStatus(overInputs: specification) { () throws -> Bool in
            let parsed = try CommandLineArguments(arguments, for: specification)
            let confidenceThreshold = Float(try parsed.value(of: threshold) ?? 0.6)
            let minimumPoseFraction = try parsed.value(of: minimumPose) ?? 0.6
            let postprocessing = PostprocessingSettings(
                smoothingWindow: try parsed.value(of: smoothing) ?? PostprocessingSettings.standard.smoothingWindow,
                holdCount: try parsed.value(of: hold) ?? PostprocessingSettings.standard.holdCount,
                refractoryTime: try parsed.value(of: refractory) ?? PostprocessingSettings.standard.refractoryTime)
            // Option values out of range are usage errors (exit status 2), found before the model is read.
            do {
                try PredictionSettings(
                    stride: try parsed.value(of: stride) ?? 1, confidenceThreshold: confidenceThreshold,
                    minimumPoseFraction: minimumPoseFraction
                ).check()
                try postprocessing.check()
            } catch let error as PredictionError {
                throw UsageError("\(error)")
            } catch let error as PostprocessingError {
                throw UsageError("\(error)")
            }
            if try parsed.value(of: inputFormat) != nil, try parsed.value(of: live) == nil {
                throw UsageError("--input-format names the FFmpeg input format of a --live stream; files give their own")
            }
            if let url = try parsed.value(of: live) {
                // A live run prints its predictions; an output folder would be silently ignored.
                if try parsed.value(of: output) != nil {
                    throw UsageError("--live prints each prediction as it is made (--json for JSON lines) and writes no folder; "
                        + "--output is for INPUT files")
                }
                // A regular file is not a stream: read at full speed, its frames were dropped as
                // late and the file called corrupt ('no decodable frame').
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url, isDirectory: &isDirectory),
                   let type = (try? FileManager.default.attributesOfItem(atPath: url))?[.type] as? FileAttributeType,
                   type == .typeRegular || type == .typeDirectory {
                    throw UsageError("--live \(url): a \(type == .typeDirectory ? "folder" : "file"), not a live stream; give it as an INPUT "
                        + "(actionlab predict MODEL \(url)); --live reads streams: udp://, rtp://, http://, a named pipe, a camera such as /dev/video0")
                }
            }
            let predictionModel = try PredictionModel(folder: URL(fileURLWithPath: try parsed.value(of: model), isDirectory: true))
            let configuration = predictionModel.trained.configuration
            let rate = configuration.windows.sampling == .sliding ? configuration.windows.frameRate : configuration.features.frameRate
            let settings = PredictionSettings(
                stride: try parsed.value(of: stride) ?? max(1, Int((rate / 3).rounded())),
                confidenceThreshold: confidenceThreshold, minimumPoseFraction: minimumPoseFraction)
            let cacheFolder = try parsed.value(of: cache).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? configuration.features.cache
            let featureCache = try FeatureCache(directory: cacheFolder) { discarded in
                Console.progress("warning: \(discarded)")
            }
            let duration = try parsed.value(of: windowDuration)
            let run = PredictionRun(
                model: predictionModel, settings: settings, windowDuration: duration, cache: featureCache, log: { Console.progress($0) })
            do {
                try run.checkSettings()
            } catch let error as PredictionError {
                switch error {
                case .invalidSetting, .missingSetting: break
                default: throw error
                }
                throw UsageError("\(error)")
            }
            if let url = try parsed.value(of: live) {
                guard try parsed.values(of: inputs).isEmpty else { throw UsageError("--live reads a stream instead of INPUT files; give one or the other") }
                try predictLive(
                    url: url, model: predictionModel, settings: settings, windowDuration: duration,
                    format: try parsed.value(of: inputFormat), json: parsed.isSet(json))
                return false
            }
            let outputFolder = URL(fileURLWithPath: try parsed.value(of: output) ?? "predictions", isDirectory: true)
            try PredictionFolder.checkUsable(outputFolder)
            do {
                try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            } catch {
                throw ReportError.writeFailed(path: outputFolder.path, reason: "cannot create the output folder: \(ReportError.reason(error))")
            }
            // A folder holding an earlier prediction gets this one instead: the streams it recorded
            // that this run does not write again are removed once this run's are written.
            let earlierStreams = PredictionFolder.recordedStreams(in: outputFolder)
            let resolver = PredictionInputResolver(configuration: configuration) { Console.progress("warning: \($0)") }
            var resolved: [PredictionInput] = []
            var failed: [String] = []
            for path in try parsed.values(of: inputs) {
                do {
                    resolved += try resolver.inputs(for: [URL(fileURLWithPath: path)])
                } catch {
                    Console.error("failed: \(error)")
                    failed.append("\(error)")
                }
            }
            Console.progress("model: \(predictionModel.origin); \(resolved.count) input\(resolved.count == 1 ? "" : "s")")
            // Poses extracted from video are Vision-18; another model fails each video by itself below.
            let readsVideo = predictionModel.layout.name == SkeletonLayout.vision18.name
            let extractionFailures = extractVideos(
                of: readsVideo ? resolved : [], configuration: configuration, cache: featureCache,
                workers: try parsed.value(of: workers) ?? configuration.features.extractionWorkers)
            var analyses: [StreamAnalysis] = []
            var usedNames: Set<String> = []
            for input in resolved {
                if let message = extractionFailures[input.file.path] {
                    let failure = failureText(of: input, message)
                    Console.error("failed: \(failure)")
                    failed.append(failure)
                    continue
                }
                do {
                    for var stream in try run.predict(input) {
                        let name = PredictionFolder.streamFolderName(for: stream.name, taken: usedNames)
                        usedNames.insert(name)
                        stream.name = name
                        let analysis = try StreamAnalysis(
                            stream: stream, settings: settings, postprocessing: postprocessing, layout: predictionModel.layout)
                        try PredictionReport(
                            analysis: analysis, modelOrigin: predictionModel.origin, settings: settings, postprocessing: postprocessing
                        ).write(to: outputFolder.appendingPathComponent(name, isDirectory: true))
                        if parsed.isSet(json) { for line in PredictionJSON.lines(of: stream, folder: name) { print(line) } }
                        for note in stream.notes { Console.progress("\(name): \(note)") }
                        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
                        Console.progress("\(name): \(count(stream.predictions.count, "prediction")), "
                            + "\(count(analysis.segments.count, "segment")), \(count(analysis.events.events.count, "event"))")
                        analyses.append(analysis)
                    }
                } catch {
                    let failure = failureText(of: input, "\(error)")
                    Console.error("failed: \(failure)")
                    failed.append(failure)
                }
            }
            if analyses.isEmpty && !earlierStreams.isEmpty {
                // Nothing replaces the earlier prediction: its streams, summary and record stay as they were.
                Console.error("nothing written to \(outputFolder.path): every input failed, so the earlier prediction's "
                    + "\(earlierStreams.count) stream folder\(earlierStreams.count == 1 ? "" : "s") and summary are kept")
                return true
            }
            try RunPredictionSummary(analyses: analyses, failures: failed, modelOrigin: predictionModel.origin)
                .write(to: outputFolder)
            try PredictionFolder.writeRecord(streams: analyses.map(\.stream.name), in: outputFolder)
            let (removed, kept) = PredictionFolder.removeEarlierStreams(earlierStreams, keeping: usedNames, in: outputFolder)
            if !removed.isEmpty {
                Console.progress("removed the earlier prediction's \(removed.count) other stream folder\(removed.count == 1 ? "" : "s") "
                    + "from \(outputFolder.path): \(removed.joined(separator: ", "))")
            }
            for name in kept {
                Console.progress("warning: kept \(name), a stream folder of the earlier prediction: it holds files of its own or is a link")
            }
            print(outputFolder.path)
            return !failed.isEmpty
        }
    }

    /// "ORIGIN: MESSAGE", or the message alone when it already starts with the input's origin
    /// (a file given on the command line; a montage input's origin also names its annotation file, which is kept).
    private static func failureText(of input: PredictionInput, _ message: String) -> String {
        message.hasPrefix(input.origin) ? message : "\(input.origin): \(message)"
    }

    /// Extracts the poses of the video inputs into `cache`, `workers` videos at once, with
    /// progress, so that predicting then reads them from the cache; nothing is done for fewer
    /// than two videos or one worker (each is then extracted as it is predicted).
    /// - Returns: The message of each video that failed, by path.
    static func extractVideos(
        of inputs: [PredictionInput], configuration: ExperimentConfiguration, cache: FeatureCache, workers: Int
    ) -> [String: String] {
        var seen = Set<String>()
        let videos = inputs.filter { $0.source.format.decodesVideo && seen.insert($0.file.path).inserted }.map {
            ManifestVideos.Video(file: $0.file, frameRate: $0.source.frameRate, pose: configuration.features.pose)
        }
        guard videos.count > 1, workers > 1 else { return [:] }
        Console.progress("extracting the poses of \(videos.count) videos, \(min(workers, videos.count)) at a time")
        let summary = VideoExtractionRun(videos: ManifestVideos(videos: videos), cache: cache, workers: workers)
            .run(onEvent: ProgressDisplay().handle)
        var failures: [String: String] = [:]
        for (video, outcome) in zip(videos, summary.outcomes) {
            if case let .failed(message) = outcome { failures[video.file.path] = message }
        }
        return failures
    }

    /// `--live URL`: predictions printed as they are made, then the statistics.
    static func predictLive(
        url: String, model: PredictionModel, settings: PredictionSettings, windowDuration: Double?, format: String?, json: Bool
    ) throws {
        let live = LivePrediction(
            model: model, settings: settings, windowDuration: windowDuration, sourceOptions: LiveSourceOptions(inputFormat: format))
        let statistics = try live.run(url: url) { prediction, latency in
            // Unbuffered, so that a reader of the pipe sees each prediction as it is made.
            let line = json
                ? PredictionJSON.line(of: prediction, labels: model.labels, stream: url, latency: latency)
                : String(format: "%8.2f s  %-13@ %@ %.3f  (latency %.0f ms)", prediction.endTime, prediction.status.rawValue as NSString,
                         prediction.label as NSString, Double(prediction.confidence), latency * 1000)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0 * 1000) } ?? "none" }
        Console.progress("\(url): \(statistics.framesProcessed) frames processed, \(statistics.framesDropped) dropped of "
            + "\(statistics.framesDecoded) decoded; \(statistics.predictions) predictions; latency p50 "
            + "\(milliseconds(statistics.latency(quantile: 0.5))), p95 \(milliseconds(statistics.latency(quantile: 0.95)))"
            + (statistics.ending.map { "; ended: \($0)" } ?? ""))
    }
}
