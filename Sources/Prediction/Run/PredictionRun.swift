import Dataset
import FeatureCache
import Foundation
import Manifest
import Pose

/// Runs a model over inputs read through the feature cache, one stream at a time.
///
/// Each input file is imported (or its poses extracted) once into the cache, exactly as a
/// training run would read it, then fed frame by frame to a ``Predictor``; one file that cannot
/// be read fails that file only (``predict(_:)`` throws for it, the caller goes on).
public struct PredictionRun {
    /// The model.
    public var model: PredictionModel
    /// Stride, threshold, minimum share of frames with a pose.
    public var settings: PredictionSettings
    /// The window duration in seconds for a model trained with uniform sampling; nil otherwise.
    public var windowDuration: Double?
    /// The feature cache inputs are read through.
    public var cache: FeatureCache
    /// Receives import and extraction lines and warnings.
    public var log: @Sendable (String) -> Void

    public init(
        model: PredictionModel, settings: PredictionSettings, windowDuration: Double? = nil, cache: FeatureCache,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.model = model
        self.settings = settings
        self.windowDuration = windowDuration
        self.cache = cache
        self.log = log
    }

    /// The label given to importers for inputs, which carry none (it names no class of the model).
    public static let placeholderLabel = "(unlabelled input)"

    /// Checks that the predictor can be made (settings, window duration) before any input is read.
    ///
    /// - Throws: ``PredictionError`` for invalid settings.
    public func checkSettings() throws {
        _ = try model.makePredictor(settings: settings, windowDuration: windowDuration)
    }

    /// The streams of one input, predicted.
    ///
    /// - Returns: One ``StreamPrediction`` per recording in the file (most files hold one).
    /// - Throws: ``PredictionError/layoutMismatch(model:modelLayout:input:inputLayout:)`` when the
    ///   input's poses are not in the model's layout; the file's import or extraction error; a
    ///   ``PredictionError/invalidFrame(input:frame:reason:)`` for a frame the predictor refuses.
    public func predict(_ input: PredictionInput) throws -> [StreamPrediction] {
        let layout = model.layout
        if input.source.format.producesVision18, layout.name != SkeletonLayout.vision18.name {
            throw PredictionError.layoutMismatch(
                model: model.origin, modelLayout: layout.name, input: input.file.path, inputLayout: SkeletonLayout.vision18.name)
        }
        var configuration = model.trained.configuration
        configuration.features.cache = cache.directory
        let loader = DatasetLoader(configuration: configuration, cache: cache, log: log)
        // Importers that label what they read need a label; a prediction input has none (UEA files carry their own).
        let label = input.source.format == .uea ? nil : Self.placeholderLabel
        let sequences = try loader.sequences(of: DatasetSample(file: input.file, label: label), in: input.source)
        return try sequences.enumerated().map { index, sequence in
            // `#0`, `#1`, …: the series numbers of training's sample ids (scores/<split>.csv, provenance.json).
            let name = input.file.lastPathComponent + (sequences.count > 1 ? "#\(index)" : "")
            return try predict(try sequence.poseSequence(), input: input, name: name)
        }
    }

    /// Feeds one pose sequence to a fresh predictor, frame by frame.
    ///
    /// - Throws: ``PredictionError`` for a frame the predictor refuses (shape, time, value).
    public func predict(_ sequence: PoseSequence, input: PredictionInput, name: String) throws -> StreamPrediction {
        let layout = model.layout
        guard sequence.channelCount == layout.channelCount, sequence.jointCount == layout.jointCount else {
            throw PredictionError.layoutMismatch(
                model: model.origin, modelLayout: "\(layout.name) [T, \(layout.channelCount), \(layout.jointCount)]",
                input: input.file.path, inputLayout: "[T, \(sequence.channelCount), \(sequence.jointCount)]")
        }
        var predictor = try model.makePredictor(settings: settings, windowDuration: windowDuration)
        var predictions: [WindowPrediction] = []
        var frames: [Float] = []
        frames.reserveCapacity(sequence.keypoints.count)
        let perFrame = sequence.valuesPerFrame
        for frame in 0..<sequence.frameCount {
            let values = Array(sequence.keypoints[(frame * perFrame)..<((frame + 1) * perFrame)])
            do {
                predictions += try predictor.append(timestamp: sequence.timestamps[frame], keypoints: values)
            } catch let PredictionError.invalidFrame(_, _, reason) {
                throw PredictionError.invalidFrame(input: "\(input.file.path) (\(name))", frame: frame, reason: reason)
            }
        }
        predictions += predictor.finish()
        let rate = predictor.timing.frameRate
        let poses = sequence.frameRate == rate
            ? sequence : sequence.resampled(to: rate, treatingZeroJointsAsUndetected: layout.marksUndetectedJointsWithZeros)
        var notes: [String] = []
        if let padded = predictions.first(where: { $0.paddedFrames > 0 }) {
            notes.append("the stream has \(predictor.resampledFrameCount) frame\(predictor.resampledFrameCount == 1 ? "" : "s") at \(rate) fps, shorter than one window of "
                + "\(predictor.framesPerWindow); its one window was padded with \(padded.paddedFrames) all-zero frames, as in training")
        } else if predictor.resampledFrameCount < predictor.framesPerWindow {
            notes.append("the stream has \(predictor.resampledFrameCount) frame\(predictor.resampledFrameCount == 1 ? "" : "s") at \(rate) fps, shorter than one window of "
                + "\(predictor.framesPerWindow); its frames were resampled to the model's \(predictor.windowSize) as in training")
        }
        var input = input
        input.annotations = Self.annotations(
            input.annotations, within: poses.duration, origin: input.origin, notes: &notes)
        let foreign = Set(input.annotations.map(\.label)).subtracting(model.labels).sorted()
        if !foreign.isEmpty {
            notes.append("the annotated label\(foreign.count == 1 ? "" : "s") \(foreign.map { "'\($0)'" }.joined(separator: ", ")) "
                + "(\(input.origin)) \(foreign.count == 1 ? "is not one" : "are not") of the model's classes "
                + "(\(model.labels.joined(separator: ", "))): \(foreign.count == 1 ? "its" : "their") frames can never be "
                + "predicted right and count as errors in every score")
        }
        return StreamPrediction(
            input: input, name: name, labels: model.labels, frameRate: rate, frameCount: predictor.resampledFrameCount,
            predictions: predictions, poses: poses, notes: notes)
    }

    /// Montage annotations fitted to a stream of `duration` seconds, as training fits them: a range
    /// starting at or after the end is left out, one ending past it is clamped to it, each with a
    /// note; overlapping ranges are kept (the later one is scored where they overlap), with a note.
    static func annotations(
        _ annotations: [PredictionInput.Annotation], within duration: Double, origin: String, notes: inout [String]
    ) -> [PredictionInput.Annotation] {
        func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
        var kept: [PredictionInput.Annotation] = []
        for annotation in annotations {
            let range = "the annotated '\(annotation.label)' from \(seconds(annotation.start))"
            guard annotation.start < duration else {
                notes.append("\(range) (\(origin)) starts at or after the stream's end at \(seconds(duration)): left out")
                continue
            }
            var fitted = annotation
            if let end = annotation.end, end > duration + 1e-9 {
                notes.append("\(range) to \(seconds(end)) (\(origin)) ends past the stream's end at \(seconds(duration)): clamped")
                fitted.end = duration
            }
            if let previous = kept.last, annotation.start < (previous.end ?? duration) {
                notes.append("the annotated '\(previous.label)' and '\(annotation.label)' (\(origin)) overlap from "
                    + "\(seconds(annotation.start)): the later one is scored where they do")
            }
            kept.append(fitted)
        }
        return kept
    }
}
