import ContentHashing
import Export
import FeatureCache
import Foundation
import JSON5
import Manifest
import NeuralNetwork
import Pose

/// A trained model ready to predict, found from the folder `actionlab predict` is given.
///
/// The folder is an export folder (`actionlab export`: `weights.h5` and `config.json` beside the
/// other formats), a trial folder (`trials/<id>/`), a sweep folder, whose best trial is
/// taken by `export`'s rule (``TrialSelection``), or a stream ensemble's export folder
/// (`actionlab export --ensemble`: `ensemble.json` and `members/<stream>/`), whose members are
/// fused by ``LateFusionEnsemble`` with the exported weights.
public struct PredictionModel {
    /// The configuration and weights (of an ensemble: its first member's, whose windows, layout
    /// and labels every member shares).
    public var trained: TrainedModel
    /// The classifier, rebuilt from them.
    public var classifier: any Classifier
    /// Where the model came from, for reports: the folder, and for a sweep the trial and the rule.
    public var origin: String

    /// Finds and loads the model of `folder`.
    ///
    /// - Throws: ``ExportError`` when the folder does not exist, holds no complete trial, or its
    ///   `config.json` or `weights.h5` is missing, unreadable or inconsistent; for an ensemble,
    ///   also when `ensemble.json` is unreadable, was edited after the export (its `digest`), or
    ///   its members differ in windows or labels.
    public init(folder: URL) throws {
        let ensembleFile = folder.appendingPathComponent(EnsembleExporter.descriptionName)
        if FileManager.default.fileExists(atPath: ensembleFile.path) {
            (trained, classifier, origin) = try Self.ensemble(described: ensembleFile, in: folder)
            return
        }
        if TrialFolder.looksLikeTrial(folder) {
            trained = try TrainedModel(folder: folder)
            origin = folder.path
        } else {
            let selection = try TrialSelection.select(in: folder)
            trained = try TrainedModel(folder: selection.chosen.folder.url)
            origin = "\(folder.path), trial \(selection.chosen.folder.id) (\(selection.rule))"
        }
        classifier = try trained.makeModel()
    }

    /// The members of an ensemble export folder, fused.
    private static func ensemble(described file: URL, in folder: URL) throws -> (TrainedModel, any Classifier, String) {
        let description: EnsembleExporter.Description
        do {
            description = try JSONDocument.decode(EnsembleExporter.Description.self, from: Data(contentsOf: file))
        } catch {
            throw ExportError.unreadableFile(path: file.path, reason: "not an ensemble description of actionlab export --ensemble: \(error)")
        }
        guard description.format == EnsembleExporter.Description.format, description.formatVersion == 1 else {
            throw ExportError.inconsistentTrial(
                path: file.path, reason: "format '\(description.format)' version \(description.formatVersion); expected "
                    + "'\(EnsembleExporter.Description.format)' version 1")
        }
        if let recorded = description.digest, recorded != (try description.contentDigest()) {
            throw ExportError.inconsistentTrial(
                path: file.path, reason: "its members, weights or labels were changed after the export (they no longer match its "
                    + "digest); model.onnx still fuses the exported ones: export the ensemble again")
        }
        var members: [(name: String, classifier: any Classifier)] = []
        var first: TrainedModel?
        for member in description.members {
            let memberFolder = folder.appendingPathComponent(member.folder, isDirectory: true)
            guard memberFolder.standardizedFileURL.path.hasPrefix(folder.standardizedFileURL.path + "/") else {
                throw ExportError.inconsistentTrial(path: file.path, reason: "member folder '\(member.folder)' lies outside the export folder")
            }
            for (name, expected) in [(ModelExporter.configurationName, member.configurationSHA256), ("weights.h5", member.weightsSHA256)] {
                let url = memberFolder.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    throw ExportError.missingFile(path: url.path, purpose: "member '\(member.stream)' of \(file.lastPathComponent)")
                }
                let actual = try ContentHash.sha256(ofFileAt: url).description
                guard actual == expected else {
                    throw ExportError.inconsistentTrial(
                        path: url.path, reason: "its SHA-256 is \(actual), not the \(expected) that \(file.lastPathComponent) records: "
                            + "the file changed after the export")
                }
            }
            let trained = try TrainedModel(folder: memberFolder)
            guard trained.labels == description.labels else {
                throw ExportError.inconsistentTrial(
                    path: memberFolder.path, reason: "its labels differ from those \(file.lastPathComponent) lists")
            }
            if let first, trained.labels != first.labels || trained.configuration.windows != first.configuration.windows
                || trained.configuration.features.layout != first.configuration.features.layout {
                throw ExportError.inconsistentTrial(
                    path: memberFolder.path, reason: "its labels, windows or layout differ from those of member '\(description.members[0].stream)'")
            }
            first = first ?? trained
            members.append((member.stream, try trained.makeModel()))
        }
        guard let first else { throw ExportError.inconsistentTrial(path: file.path, reason: "the ensemble lists no member") }
        do {
            let classifier = try LateFusionEnsemble(members: members, weights: description.members.map(\.weight))
            let streams = description.members.map(\.stream).joined(separator: "+")
            return (first, classifier, "\(folder.path), stream ensemble \(streams) of seed \(description.seed)")
        } catch {
            throw ExportError.inconsistentTrial(path: file.path, reason: "\(error)")
        }
    }

    /// The skeleton layout the model was trained on.
    public var layout: SkeletonLayout { trained.configuration.features.layout }

    /// The model's class names, in output order.
    public var labels: [String] { trained.labels }

    /// How stream frames become this model's windows: its training windows (sliding at the
    /// window frame rate, or uniform over `windowDuration` seconds).
    ///
    /// - Parameter windowDuration: For a model trained with uniform sampling, the seconds one
    ///   window covers (one performance of an action); nil for sliding windows, whose duration
    ///   the model fixes.
    /// - Throws: ``PredictionError/invalidSetting(name:value:expected:)`` when a uniform model gets
    ///   no positive duration, or a sliding-window model gets one (it would be ignored).
    public func timing(windowDuration: Double?) throws -> Predictor.Timing {
        let windows = trained.configuration.windows
        switch windows.sampling {
        case .sliding:
            if let windowDuration {
                throw PredictionError.invalidSetting(
                    name: "--window-duration", value: "\(windowDuration)",
                    expected: "no value: it is for models trained with uniform sampling, and this model was trained on sliding "
                        + "windows of \(windows.size) frames at \(windows.frameRate) fps "
                        + "(\(String(format: "%g", Double(windows.size) / windows.frameRate)) s each), which it keeps")
            }
            return .sliding(frameRate: windows.frameRate)
        case .uniform:
            let rate = trained.configuration.features.frameRate
            guard let windowDuration, windowDuration.isFinite, windowDuration > 0,
                  (windowDuration * rate).rounded() >= 1, windowDuration * rate <= Double(WindowConfiguration.maximumSize)
            else {
                let expected = "the seconds one window covers: this model was trained with uniform sampling (each recording "
                    + "resampled to \(windows.size) frames), so a stream needs a window duration, such as a typical "
                    + "performance's length, between 1 frame and \(WindowConfiguration.maximumSize) frames at \(rate) fps"
                guard let windowDuration else { throw PredictionError.missingSetting(name: "--window-duration", expected: expected) }
                throw PredictionError.invalidSetting(name: "--window-duration", value: "\(windowDuration)", expected: expected)
            }
            return .uniform(frameRate: rate, framesPerWindow: Int((windowDuration * rate).rounded()))
        }
    }

    /// A predictor running this model with `settings`.
    ///
    /// - Parameter windowDuration: See ``timing(windowDuration:)``.
    /// - Throws: ``PredictionError`` for invalid settings.
    public func makePredictor(settings: PredictionSettings, windowDuration: Double? = nil) throws -> Predictor {
        try Predictor(
            model: classifier, labels: labels, windowSize: trained.configuration.windows.size,
            channelCount: layout.channelCount, jointCount: layout.jointCount, timing: timing(windowDuration: windowDuration),
            settings: settings, treatsZeroJointsAsUndetected: layout.marksUndetectedJointsWithZeros)
    }
}
