import JSON5
import Manifest
import ManifestSchema
import NeuralNetwork

/// The `sweep` section of a manifest: a grid over dotted configuration paths, crossed with
/// `training.seeds`, and the rule that picks the best configuration.
///
/// ```json5
/// sweep: {
///   grid: { "windows.duration": [1, 2, 3], augmentation: ["none", "flip", "full"] },
///   selection: { metric: "validation.accuracy" },   // the default
///   ensembleWeights: { joint: 2, bone: 2, jointMotion: 1, boneMotion: 1 },   // the default
/// }
/// ```
/// Cells that differ only in `model.stream` are also fused into a stream ensemble
/// (``StreamEnsemble``), weighted by `ensembleWeights`.
/// Each grid cell sets its values on the manifest before it is decoded, so every cell is checked
/// exactly like a manifest, and a combination that contradicts the rest (sweeping
/// `windows.duration` while the manifest fixes `windows.size`) is an error naming the cell.
/// Action duration, window size and frame rate are linked (duration = size / frame rate): sweep
/// any two of them.
public struct SweepConfiguration: Sendable, Hashable, Codable {
    /// One swept parameter.
    public struct Axis: Sendable, Hashable, Codable {
        /// Dotted path into the manifest, such as `windows.duration`.
        public var path: String
        /// The values as canonical JSON text (`2`, `"flip"`).
        public var values: [String]
    }

    /// The swept parameters, first varying slowest.
    public var axes: [Axis]
    /// What ranks configurations.
    public var selection: SelectionMetric
    /// The weight of each stream's class probabilities in a stream ensemble; nil for
    /// ``defaultEnsembleWeights``. Optional so that `sweep.json` files written before it decode.
    public var ensembleWeights: [KeypointStream: Double]?

    /// PYSKL's fusion weights for its four-stream ensembles: joint 2, bone 2, joint motion 1,
    /// bone motion 1 (`tools/ensemble` in PYSKL's README; Duan et al., ACM MM 2022).
    public static let defaultEnsembleWeights: [KeypointStream: Double] = [.joint: 2, .bone: 2, .jointMotion: 1, .boneMotion: 1]

    public init(axes: [Axis] = [], selection: SelectionMetric = .validationAccuracy, ensembleWeights: [KeypointStream: Double]? = nil) {
        self.axes = axes
        self.selection = selection
        self.ensembleWeights = ensembleWeights
    }

    /// The weights a stream ensemble uses.
    public var streamWeights: [KeypointStream: Double] { ensembleWeights ?? Self.defaultEnsembleWeights }

    /// Number of grid cells (configurations); 1 without axes.
    public var cellCount: Int { axes.reduce(1) { $0 * $1.values.count } }
}

/// The metric a sweep's leaderboard is sorted by, taken as the mean over a configuration's seeds.
public enum SelectionMetric: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
    case validationAccuracy = "validation.accuracy"
    case validationMacroF1 = "validation.macro_f1"
    case validationLoss = "validation.loss"
    case validationSequenceAccuracy = "validation.sequence.accuracy"
    case trainAccuracy = "train.accuracy"
    case testAccuracy = "test.accuracy"

    /// Whether larger values are better (all but the loss).
    public var higherIsBetter: Bool { self != .validationLoss }

    /// The split the metric reads.
    public var split: String { String(rawValue.prefix { $0 != "." }) }

    /// The metric's value in one trial's outcome, or nil if the split is absent.
    public func value(in outcome: TrialOutcome) -> Double? {
        guard let split = outcome.splits[split] else { return nil }
        switch self {
        case .validationAccuracy, .trainAccuracy, .testAccuracy: return split.accuracy
        case .validationMacroF1: return split.macroF1
        case .validationLoss: return split.loss
        case .validationSequenceAccuracy: return split.sequenceAccuracy
        }
    }
}

extension SweepConfiguration {
    /// Reads the section; `grid` values are returned separately as JSON5 values with their
    /// source locations, for applying to the manifest.
    static func read(_ node: ManifestNode) -> (SweepConfiguration, [(path: [String], values: [JSON5Value])])? {
        var configuration = SweepConfiguration()
        var grid: [(path: [String], values: [JSON5Value])] = []
        let result: Void? = node.object { object in
            object.read("selection", into: &configuration.selection) { selection in
                selection.object { $0.required("metric").flatMap { $0.choice(SelectionMetric.self) } }
            }
            object.read("ensembleWeights", into: &configuration.ensembleWeights) { weights in
                weights.object { streams in
                    var result = SweepConfiguration.defaultEnsembleWeights
                    var valid = true
                    for stream in KeypointStream.allCases {
                        var weight = result[stream] ?? 0
                        if streams.read(stream.rawValue, into: &weight, { $0.double(.nonNegative) }) == .invalid { valid = false }
                        result[stream] = weight
                    }
                    if valid && result.values.allSatisfy({ $0 == 0 }) {
                        weights.report("every stream's weight is 0: fused probabilities would be 0 / 0; give at least one stream a weight above 0")
                        return nil
                    }
                    return valid ? result : nil
                }
            }
            guard let gridNode = object.required("grid", "an object from dotted paths to lists of values") else { return () }
            guard let members = gridNode.value.objectMembers else {
                gridNode.report("expected an object, found \(gridNode.value.typeDescription)")
                return ()
            }
            for member in members {
                let memberNode = gridNode.child(member.value, at: gridNode.path.appending(key: member.key))
                let keys = member.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                if keys.first == "launcher" {
                    memberNode.report("cannot sweep '\(member.key)': the launcher says where trials run, not what they compute")
                    continue
                }
                if keys.contains(where: \.isEmpty) || keys.first == "sweep" || member.key == "name" {
                    memberNode.report("cannot sweep '\(member.key)': give a dotted path to a setting, such as 'windows.duration'")
                    continue
                }
                if Trial.settingsOutsideIdentity.contains(member.key) {
                    memberNode.report("cannot sweep '\(member.key)': it changes no result (it is not part of the trial id), so every "
                        + "grid cell would be the same trial")
                    continue
                }
                if member.key == "training.seeds" {
                    memberNode.report("cannot sweep 'training.seeds': every grid cell runs every seed of training.seeds")
                    continue
                }
                guard let values = member.value.arrayValue, !values.isEmpty else {
                    memberNode.report("expected a non-empty array of values to sweep")
                    continue
                }
                let texts = values.map { $0.jsonString(sortedKeys: true) }
                if Set(texts).count != texts.count {
                    memberNode.report("a value is listed twice; each grid value must be distinct")
                    continue
                }
                grid.append((keys, values))
                configuration.axes.append(Axis(path: member.key, values: texts))
            }
            return ()
        }
        return result == nil ? nil : (configuration, grid)
    }
}
