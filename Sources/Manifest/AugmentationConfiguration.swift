import Augmentation
import JSON5
import ManifestSchema
import Pose

/// Which augmentation pipeline training uses, and the pipelines a manifest defines.
///
/// Manifest keys (top level):
/// ```json5
/// augmentation: "full",                 // pipeline name: "none" (default), "flip", "full", or a defined one
/// augmentations: {                      // optional definitions
///   gentle: [{ kind: "rotation", degrees: 5 }, { kind: "jitter", standardDeviation: 0.002 }],
/// },
/// ```
/// Built-in pipelines, for body pose in image coordinates (`SkeletonLayout.isImagePose`):
/// `flip` = flip (p 0.5); `full` = flip (p 0.5), rotation ±10°, scale 0.9–1.1, translation ±0.05,
/// jitter σ 0.003, time interpolation 0.8–1.25×, joint dropout 0.02. For other layouts (sensor
/// channels) `full` = scale 0.9–1.1, jitter σ 0.01, time interpolation 0.8–1.25×, and `flip` is
/// an error. A defined pipeline with a built-in's name replaces it.
public struct AugmentationConfiguration: Sendable, Hashable, Codable {
    /// Names of the built-in pipelines.
    public static let builtInNames = ["none", "flip", "full"]

    /// The pipeline training uses.
    public var pipeline: String
    /// Its steps, resolved against the definitions and the built-ins for the layout.
    public var steps: [AugmentationStep]
    /// Pipelines defined in the manifest.
    public var definitions: [String: [AugmentationStep]]

    public init(pipeline: String = "none", steps: [AugmentationStep] = [], definitions: [String: [AugmentationStep]] = [:]) {
        self.pipeline = pipeline
        self.steps = steps
        self.definitions = definitions
    }

    /// The steps of a built-in pipeline for `layout`, or nil for an unknown name.
    public static func builtIn(_ name: String, for layout: SkeletonLayout) -> [AugmentationStep]? {
        let planar = layout.isImagePose
        switch name {
        case "none":
            return []
        case "flip":
            return [.horizontalFlip(probability: 0.5)]
        case "full" where planar:
            return [
                .horizontalFlip(probability: 0.5), .rotation(degrees: 10), .scale(minimum: 0.9, maximum: 1.1),
                .translation(maximum: 0.05), .jitter(standardDeviation: 0.003),
                .timeInterpolation(minimumSpeed: 0.8, maximumSpeed: 1.25), .jointDropout(probability: 0.02),
            ]
        case "full":
            return [.scale(minimum: 0.9, maximum: 1.1), .jitter(standardDeviation: 0.01),
                    .timeInterpolation(minimumSpeed: 0.8, maximumSpeed: 1.25)]
        default:
            return nil
        }
    }
}

extension AugmentationConfiguration {
    /// The manifest's `augmentations`: pipelines by name, each a list of steps.
    static var definitionsKind: SettingKind<[String: [AugmentationStep]]> {
        SettingKind(
            type: "object of step lists", describe: { $0.isEmpty ? "{}" : nil },
            read: { node in node.dictionary { $0.array(Self.step(from:)) } })
    }

    /// Resolves ``pipeline`` against ``definitions`` and the built-ins for `layout`, setting
    /// ``steps``, and reports at `node` (the `augmentation` value, or the manifest when it is
    /// absent) an unknown name or a step the layout cannot take.
    mutating func resolveSteps(for layout: SkeletonLayout, reportingAt node: ManifestNode) {
        guard let resolved = definitions[pipeline] ?? Self.builtIn(pipeline, for: layout) else {
            let known = (Self.builtInNames + definitions.keys.sorted()).map { "'\($0)'" }.joined(separator: ", ")
            node.report("unknown augmentation pipeline '\(pipeline)'; known pipelines: \(known)")
            return
        }
        steps = resolved
        do {
            _ = try AugmentationPipeline(name: pipeline, steps: steps, layout: layout)
        } catch {
            node.report("\(error)")
        }
    }

    /// One step: `{ kind, ...parameters }`, parameters defaulting as documented on each case.
    private static func step(from node: ManifestNode) -> AugmentationStep? {
        node.object { object in
            guard let kindNode = object.required("kind", "one of \(kinds.joined(separator: ", "))"),
                  let kind = kindNode.nonEmptyString() else { return nil }
            func value(_ key: String, _ fallback: Double, _ bounds: NumericBounds) -> Double {
                var result = fallback
                object.read(key, into: &result) { $0.double(bounds) }
                return result
            }
            let probability = NumericBounds.closed(0, 1)
            switch kind {
            case "flip": return .horizontalFlip(probability: value("probability", 0.5, probability))
            case "rotation": return .rotation(degrees: value("degrees", 10, .closed(0, 180)))
            case "scale":
                let minimum = value("minimum", 0.9, .positive), maximum = value("maximum", 1.1, .positive)
                guard minimum <= maximum else {
                    object.node.report("contradictory values: minimum \(minimum) is greater than maximum \(maximum)")
                    return nil
                }
                return .scale(minimum: minimum, maximum: maximum)
            case "translation": return .translation(maximum: value("maximum", 0.05, .nonNegative))
            case "shear": return .shear(maximum: value("maximum", 0.1, .nonNegative))
            case "jitter": return .jitter(standardDeviation: value("standardDeviation", 0.005, .nonNegative))
            case "timeInterpolation":
                let minimum = value("minimumSpeed", 0.8, .positive), maximum = value("maximumSpeed", 1.25, .positive)
                guard minimum <= maximum else {
                    object.node.report("contradictory values: minimumSpeed \(minimum) is greater than maximumSpeed \(maximum)")
                    return nil
                }
                return .timeInterpolation(minimumSpeed: minimum, maximumSpeed: maximum)
            case "frameDrop": return .frameDrop(probability: value("probability", 0.05, probability))
            case "jointDropout": return .jointDropout(probability: value("probability", 0.02, probability))
            default:
                let suggestion = SpellingSuggestion.nearest(to: kind, in: kinds).map { "; did you mean '\($0)'?" } ?? ""
                kindNode.report("unknown augmentation kind '\(kind)'\(suggestion) (kinds: \(kinds.joined(separator: ", ")))")
                return nil
            }
        }
    }

    private static let kinds = ["flip", "rotation", "scale", "translation", "shear", "jitter", "timeInterpolation", "frameDrop", "jointDropout"]
}
