import Foundation
import JSON5
import ManifestSchema
import Pose

extension FeatureConfiguration: ManifestSection {
    /// Create ML's body pose at 30 fps, with the cache folder relative to the current
    /// directory; a manifest's reader resolves it against the manifest's base directory instead.
    package static var defaults: FeatureConfiguration {
        FeatureConfiguration(cache: URL(fileURLWithPath: defaultCachePath, isDirectory: false))
    }

    package static var settings: [Setting<FeatureConfiguration>] {
        let names = SkeletonLayout.builtIn.map { "`\($0.name)`" }.joined(separator: ", ")
        return [
            Setting("layout", \.layout, layoutKind,
                    "a built-in layout name (\(names)) or an object `{ name, joints: [..], channels: [..], mirrorPairs: [[2, 5], ...], "
                        + "edges: [[0, 1], ...] }` (pairs of joint indices)"),
            Setting("frameRate", \.frameRate, .number(WindowConfiguration.frameRateBounds),
                    "frames (samples) per second of the recordings; the default of every source's and of the windows' frame rate"),
            .path("cache", \.cache, default: defaultCachePath, "feature cache folder; not part of the trial id, as entries are keyed by their sources' content"),
            .section("pose", \.pose, "MediaPipe's pose landmarker for video sources; every value is part of the cache key",
                     reading: PoseEstimationConfiguration.init(readingSettingsOf:)),
            Setting("workers", \.workers, .optional(.integer(.atLeast(1))),
                    "videos extracted at once (one pose landmarker each) and keypoint files imported at once; not part of the "
                        + "cache key or trial id, as results are identical for every value; `extract`, `run` and `predict` "
                        + "take `--workers N` over it")
                .defaultText("the cores this process may use (affinity mask, cgroup CPU quota), at most Slurm's SLURM_CPUS_PER_TASK"),
        ]
    }

    /// A skeleton layout: a built-in one's name, or a declaration, written back as a declaration.
    private static var layoutKind: SettingKind<SkeletonLayout> {
        SettingKind(type: "string or object", describe: { JSONStringEscaping.quoted($0.name) }, read: layout(from:))
    }

    /// Reads a built-in layout's name or a `{ name, joints, channels, mirrorPairs, edges }`
    /// declaration, checked with ``SkeletonLayout/problems()``.
    private static func layout(from node: ManifestNode) -> SkeletonLayout? {
        let builtInNames = SkeletonLayout.builtIn.map(\.name)
        if let name = node.value.stringValue {
            if let layout = SkeletonLayout.builtIn(named: name) { return layout }
            let suggestion = SpellingSuggestion.nearest(to: name, in: builtInNames).map { "; did you mean '\($0)'?" } ?? ""
            node.report(
                "unknown value '\(EchoedText.shortened(name))'; expected one of \(builtInNames.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "or an object declaring a layout" + suggestion)
            return nil
        }
        guard node.value.objectMembers != nil else {
            node.report("expected a layout name (a string) or a layout declaration (an object), found \(node.value.typeDescription)")
            return nil
        }
        return node.object { object -> SkeletonLayout? in
            let name = object.required("name")?.nonEmptyString()
            let joints = object.required("joints")?.array(minimumCount: 1) { $0.nonEmptyString() }
            let channels = object.required("channels")?.array(minimumCount: 1) { $0.nonEmptyString() }
            var mirrorPairs: [SkeletonLayout.JointPair] = []
            var edges: [SkeletonLayout.JointPair] = []
            object.read("mirrorPairs", into: &mirrorPairs) { $0.array(jointPair(from:)) }
            object.read("edges", into: &edges) { $0.array(jointPair(from:)) }
            guard let name, let joints, let channels else { return nil }
            let layout = SkeletonLayout(name: name, joints: joints, channels: channels, mirrorPairs: mirrorPairs, edges: edges)
            let problems = layout.problems()
            problems.forEach(node.report)
            return problems.isEmpty ? layout : nil
        }
    }

    /// Reads `[first, second]` joint indices.
    private static func jointPair(from node: ManifestNode) -> SkeletonLayout.JointPair? {
        guard let indices = node.array({ $0.integer(.nonNegative) }) else { return nil }
        guard indices.count == 2 else {
            node.report("expected a pair of joint indices [first, second], found \(indices.count) element\(indices.count == 1 ? "" : "s")")
            return nil
        }
        return SkeletonLayout.JointPair(indices[0], indices[1])
    }
}

extension FeatureConfiguration: Codable {
    public func encode(to encoder: Encoder) throws { try encodeSettings(to: encoder) }
    public init(from decoder: Decoder) throws { try self.init(decodingSettingsFrom: decoder) }
}
