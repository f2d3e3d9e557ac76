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
///   noFlip: { extends: "full", drop: ["flip"] },
///   steady: { extends: "full", drop: ["flip"], set: [{ kind: "rotation", degrees: 5 }],
///             append: [{ kind: "frameDrop", probability: 0.05 }] },
/// },
/// ```
/// A definition is a list of steps or an extension of a named pipeline
/// (``AugmentationDefinition``). Built-in pipelines depend on the layout:
/// - body pose in image coordinates (`SkeletonLayout.isImagePose`): `flip` = flip (p 0.5);
///   `full` = flip (p 0.5), rotation ±10°, scale 0.9–1.1, translation ±0.05 (normalized image
///   units), jitter σ 0.003, time interpolation 0.8–1.25×, joint dropout 0.02;
/// - 3-D skeletons in metres (`SkeletonLayout.isSkeleton3D`, such as `kinect-v1`): `flip` = flip
///   (p 0.5); `full` = flip (p 0.5), rotation ±20° about the vertical axis, scale 0.9–1.1,
///   translation ±0.05 m, jitter σ 0.005 m, time interpolation 0.8–1.25×, joint dropout 0.02.
///   The rotation is of the order of PYSKL's `RandomRot` (±0.3 rad, Duan et al., 2022); the
///   jitter is below Kinect v1's joint noise of about a centimetre;
/// - other layouts (sensor channels): `full` = scale 0.9–1.1, jitter σ 0.01, time interpolation
///   0.8–1.25×, and `flip` is an error.
///
/// A defined pipeline with a built-in's name replaces it.
public struct AugmentationConfiguration: Sendable, Hashable, Codable {
    /// Names of the built-in pipelines.
    public static let builtInNames = ["none", "flip", "full"]

    /// The pipeline training uses.
    public var pipeline: String
    /// Its steps, resolved against the definitions and the built-ins for the layout.
    public var steps: [AugmentationStep]
    /// Pipelines defined in the manifest; after reading a manifest, every one is the list of
    /// steps it resolved to (``resolve(_:for:)``), which is what `resolved.json` holds.
    public var definitions: [String: AugmentationDefinition]

    public init(pipeline: String = "none", steps: [AugmentationStep] = [], definitions: [String: AugmentationDefinition] = [:]) {
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
        case "full" where layout.isSkeleton3D:
            // Metres; rotation about the vertical axis.
            return [
                .horizontalFlip(probability: 0.5), .rotation(degrees: 20), .scale(minimum: 0.9, maximum: 1.1),
                .translation(maximum: 0.05), .jitter(standardDeviation: 0.005),
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
    /// The manifest's `augmentations`: pipelines by name, each a list of steps or an extension
    /// `{ extends, drop, set, append }` of a named pipeline.
    static var definitionsKind: SettingKind<[String: AugmentationDefinition]> {
        SettingKind(
            type: "object of step lists or extensions", describe: { $0.isEmpty ? "{}" : nil },
            read: { node in node.dictionary(Self.definition(from:)) })
    }

    /// Resolves ``definitions`` (``resolve(_:for:)``) and then ``pipeline`` against them and the
    /// built-ins for `layout`, setting ``steps`` and replacing every definition by its steps.
    ///
    /// - Parameters:
    ///   - layout: The manifest's layout.
    ///   - definitionsNode: The `augmentations` value, where a definition's problems are reported
    ///     at their paths (`augmentations.noFlip.drop[0]`); nil when it is absent or invalid.
    ///   - node: The `augmentation` value, or the manifest when it is absent, where an unknown
    ///     name or a step the layout cannot take is reported.
    mutating func resolveSteps(for layout: SkeletonLayout, definitionsNode: ManifestNode?, reportingAt node: ManifestNode) {
        let (resolved, problems) = Self.resolve(definitions, for: layout)
        for problem in problems {
            guard let definitionsNode else { continue }
            Self.descendant(of: definitionsNode, [.key(problem.definition)] + problem.path).report(problem.message)
        }
        let failed = Set(definitions.keys).subtracting(resolved.keys)
        definitions = resolved.mapValues(AugmentationDefinition.steps)
        guard !failed.contains(pipeline) else { return }
        guard let steps = resolved[pipeline] ?? Self.builtIn(pipeline, for: layout) else {
            let known = (Self.builtInNames + resolved.keys.sorted().filter { !Self.builtInNames.contains($0) }).map { "'\($0)'" }
                .joined(separator: ", ")
            node.report("unknown augmentation pipeline '\(pipeline)'; known pipelines: \(known)")
            return
        }
        self.steps = steps
        do {
            _ = try AugmentationPipeline(name: pipeline, steps: steps, layout: layout)
        } catch {
            node.report("\(error)")
        }
    }

    /// The node at `components` below `node`, or the deepest one that exists.
    private static func descendant(of node: ManifestNode, _ components: [JSONPath.Component]) -> ManifestNode {
        var current = node
        for component in components {
            let value: JSON5Value?
            switch component {
            case let .key(key):
                value = current.value[key]
            case let .index(index):
                value = current.value.arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
            guard let value else { break }
            current = current.child(value, at: JSONPath(current.path.components + [component]))
        }
        return current
    }

    /// One definition: an array of steps, or `{ extends, drop, set, append }`.
    private static func definition(from node: ManifestNode) -> AugmentationDefinition? {
        if node.value.arrayValue != nil { return node.array(Self.step(from:)).map(AugmentationDefinition.steps) }
        guard node.value.objectMembers != nil else {
            node.report("expected a list of steps or an object { extends, drop, set, append }, found \(node.value.typeDescription)")
            return nil
        }
        return node.object { object in
            let base = object.required("extends", "the pipeline this one changes: a built-in or a defined one")?.nonEmptyString()
            var changes = AugmentationDefinition.Extension(base: base ?? "")
            let drop = object.read("drop", into: &changes.drop) { $0.array { $0.nonEmptyString() } }
            let set = object.read("set", into: &changes.set) { $0.array(Self.step(from:)) }
            let append = object.read("append", into: &changes.append) { $0.array(Self.step(from:)) }
            guard base != nil, ![drop, set, append].contains(.invalid) else { return nil }
            return .extending(changes)
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

    private static var kinds: [String] { AugmentationStep.kinds }
}
