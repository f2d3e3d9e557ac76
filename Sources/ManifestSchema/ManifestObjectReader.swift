import JSON5

/// Reads the members of one manifest object by name, remembering which keys were asked for so
/// that every other key can be reported as unknown.
///
/// Section decoders are short and declarative with it:
///
/// ```swift
/// object.read("epochs", into: &epochs) { $0.integer(.closed(1, 100_000)) }
/// object.read("optimizer", into: &optimizer) { $0.choice(Optimizer.self) }
/// ```
package final class ManifestObjectReader {
    /// How reading one member went.
    package enum Outcome {
        /// The key is not in the object; the default stays.
        case absent
        /// The key is present but its value has a problem, already reported; the default stays.
        case invalid
        /// The key is present and its value was stored.
        case valid
    }

    /// The object itself.
    package let node: ManifestNode
    private let members: [JSON5Member]
    private var knownKeys: [String] = []
    private var claimedKeys: Set<String> = []
    /// Keys valid elsewhere (another model family's), with where: suggested for a misspelt key
    /// that is near none of ``knownKeys``.
    private var elsewhereKeys: [(key: String, note: String)] = []

    init(node: ManifestNode, members: [JSON5Member]) {
        self.node = node
        self.members = members
    }

    /// The JSON path of a member of this object.
    package func path(_ key: String) -> JSONPath { node.path.appending(key: key) }

    /// The member named `key`, or `nil` if absent; either way `key` becomes a known key.
    package func member(_ key: String) -> ManifestNode? {
        if !knownKeys.contains(key) { knownKeys.append(key) }
        return members.first { $0.key == key }.map { node.child($0.value, at: path($0.key)) }
    }

    /// The member named `key` if present, taken out of the unknown-key report without becoming
    /// a key this object suggests: for a key that belongs elsewhere (another model family's),
    /// which the caller reports itself.
    package func claim(_ key: String) -> ManifestNode? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        claimedKeys.insert(key)
        return node.child(member.value, at: path(key))
    }

    /// Makes `key`, valid only elsewhere (`note` says where, such as `kind 'mlp' only`), a
    /// suggestion for a misspelt key that is near none of this object's own keys.
    package func suggestElsewhere(_ key: String, note: String) {
        elsewhereKeys.append((key, note))
    }

    /// The member named `key`, reporting it as missing if absent.
    package func required(_ key: String, _ explanation: String? = nil) -> ManifestNode? {
        guard let member = member(key) else {
            reportMissing(key, explanation)
            return nil
        }
        return member
    }

    /// Reports that `key` is missing from this object, at the object's location.
    package func reportMissing(_ key: String, _ explanation: String? = nil) {
        node.diagnostics.report(
            "missing required value" + (explanation.map { ": \($0)" } ?? ""), at: path(key), location: node.value.location)
    }

    /// Decodes the member named `key` into `target` if present and valid; otherwise leaves
    /// `target`, which holds the default, unchanged.
    @discardableResult
    package func read<Value>(_ key: String, into target: inout Value, _ decode: (ManifestNode) -> Value?) -> Outcome {
        guard let member = member(key) else { return .absent }
        guard let value = decode(member) else { return .invalid }
        target = value
        return .valid
    }

    /// Decodes the object member `key` with `decode`, or, when it is absent, runs `decode` on an
    /// empty object so that defaults and required keys are handled the same way.
    ///
    /// - Returns: `nil` if the member is present but not an object.
    package func section<Section>(_ key: String, _ decode: (ManifestObjectReader) -> Section?) -> Section? {
        if let member = member(key) { return member.object(decode) }
        let empty = ManifestNode(value: JSON5Value(.object([]), at: node.value.location), path: path(key), diagnostics: node.diagnostics)
        return empty.object(decode)
    }

    /// Reports every key that was not asked for, suggesting the nearest known key.
    func reportUnknownKeys() {
        for member in members where !knownKeys.contains(member.key) && !claimedKeys.contains(member.key) {
            let message: String
            if let suggestion = SpellingSuggestion.nearest(to: member.key, in: knownKeys) {
                message = "unknown key; did you mean '\(suggestion)'?"
            } else if let suggestion = SpellingSuggestion.nearest(to: member.key, in: elsewhereKeys.map(\.key)),
                      let note = elsewhereKeys.first(where: { $0.key == suggestion })?.note {
                message = "unknown key; did you mean '\(suggestion)' (\(note))?"
            } else {
                message = "unknown key; expected one of \(knownKeys.map { "'\($0)'" }.joined(separator: ", "))"
            }
            node.diagnostics.report(message, at: path(member.key), location: member.keyLocation)
        }
    }
}
