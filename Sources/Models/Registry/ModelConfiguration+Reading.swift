import ManifestSchema
import Pose

extension ModelConfiguration {
    /// Reads the manifest's `model` object: `kind` chooses a family of `registry`, which reads
    /// its own keys; `dropout`, `normalizeInput` and `stream` are shared.
    ///
    /// A key that belongs only to other registered families is reported as a contradiction
    /// naming the kinds it applies to; any other key not asked for is reported as unknown.
    ///
    /// - Parameters:
    ///   - object: The `model` object.
    ///   - layout: The skeleton layout (`features.layout`); `normalizeInput` needs one with an in-model normalization.
    ///   - registry: The families `kind` may name.
    package init(reading object: ManifestObjectReader, layout: SkeletonLayout, registry: ModelRegistry) {
        self.init()
        var kindName = family.name
        let kindOutcome = object.read(Self.kindKey, into: &kindName) { $0.choice(among: registry.names) }
        let shared = SharedModelSettings.read(object)
        (dropout, normalizeInput, stream) = (shared.value.dropout, shared.value.normalizeInput, shared.value.stream)
        if stream.usesBones && layout.edges.isEmpty {
            shared.node(\.stream)?.report(
                "contradictory values: \(shared.path(\.stream)) '\(stream.rawValue)' needs bones, and layout '\(layout.name)' has no "
                    + "edges; use 'joint' or 'jointMotion', or a layout with edges")
        }
        if normalizeInput && layout.inputNormalization == nil {
            let reference = ["hipCenter", "shoulderCenter"].filter(layout.joints.contains)
            shared.node(\.normalizeInput)?.report(
                "contradictory values: \(shared.path(\.normalizeInput)) needs a body-pose layout with channels x, y and "
                    + "confidence, or a 3-D skeleton (channels x, y, z without confidence, bones in `edges`, joints hipCenter and "
                    + "shoulderCenter); layout '\(layout.name)' has channels \(layout.channels), \(layout.edges.count) edges and "
                    + (reference.isEmpty ? "neither joint" : "joints \(reference)"))
        }
        let otherKeys = Set(registry.families.flatMap(\.settingKeys))
        guard kindOutcome != .invalid, let chosen = registry.family(named: kindName) else {
            // Without a valid kind no key can be judged: none is reported.
            for key in otherKeys { _ = object.claim(key) }
            return
        }
        family = chosen
        settings = chosen.read(object)
        for key in otherKeys.subtracting(chosen.settingKeys).sorted() {
            let kinds = registry.families.filter { $0.settingKeys.contains(key) }.map { "'\($0.name)'" }
            object.suggestElsewhere(key, note: "kind\(kinds.count == 1 ? "" : "s") \(kinds.joined(separator: ", ")) only")
            guard let member = object.claim(key) else { continue }
            member.report(
                "contradictory values: \(object.path(key)) applies only to kind\(kinds.count == 1 ? "" : "s") "
                    + "\(kinds.joined(separator: ", ")), but \(object.path(Self.kindKey)) is '\(chosen.name)'")
        }
    }
}
