import Foundation
import JSON5
import ManifestSchema
import Pose

/// What the keypoint arrays look like and where extracted features are cached.
public struct FeatureConfiguration: Sendable, Hashable, Codable {
    /// The manifest's default cache folder, relative to the base directory.
    public static let defaultCachePath = "data/cache"

    /// The skeleton layout of every keypoint array, `[T, C, J]`.
    public var layout: SkeletonLayout
    /// The frame rate features are extracted at, in frames per second; the default of every
    /// source's and of the windows' frame rate.
    public var frameRate: Double
    /// The absolute URL of the feature cache folder, which need not exist yet.
    public var cache: URL
    /// The pose landmarker's settings for video sources.
    public var pose: PoseEstimationConfiguration

    /// Creates a feature configuration; the defaults are Create ML's body pose at 30 fps.
    public init(layout: SkeletonLayout = .vision18, frameRate: Double = 30, cache: URL, pose: PoseEstimationConfiguration = .init()) {
        self.layout = layout
        self.frameRate = frameRate
        self.cache = cache
        self.pose = pose
    }
}

extension FeatureConfiguration {
    init(reading object: ManifestObjectReader) {
        self.init(cache: object.node.diagnostics.resolve(Self.defaultCachePath))
        object.read("layout", into: &layout, Self.layout(from:))
        object.read("frameRate", into: &frameRate) { $0.double(.positive) }
        object.read("cache", into: &cache) { $0.resolvedPath() }
        pose = object.section("pose", PoseEstimationConfiguration.init(reading:)) ?? pose
    }

    /// Reads a built-in layout's name or a `{ name, joints, channels, mirrorPairs, edges }`
    /// declaration, checked with ``SkeletonLayout/problems()``.
    private static func layout(from node: ManifestNode) -> SkeletonLayout? {
        let builtInNames = SkeletonLayout.builtIn.map(\.name)
        if let name = node.value.stringValue {
            if let layout = SkeletonLayout.builtIn(named: name) { return layout }
            let suggestion = SpellingSuggestion.nearest(to: name, in: builtInNames).map { "; did you mean '\($0)'?" } ?? ""
            node.report(
                "unknown value '\(name)'; expected one of \(builtInNames.map { "'\($0)'" }.joined(separator: ", ")) "
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
