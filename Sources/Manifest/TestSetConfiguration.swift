import ManifestSchema

/// The held-out test set: sources that are never trained or validated on, or the recordings of
/// the training sources whose file-name fields select them (the cross-subject protocols of
/// UTD-MHAD and NTU RGB+D: `where: { subject: [2, 4, 6, 8] }`).
public struct TestSetConfiguration: Sendable, Hashable {
    /// The test sources; empty when the test set is a ``selection`` of the training sources.
    public var sources: [DataSource]
    /// Field name → the values that put a training file into the test set (every field must
    /// match one of its values); empty when the test set has its own ``sources``. Values are
    /// compared as integers when both sides are integers (`"02"` matches `2`), else as text.
    public var selection: [String: [String]]

    /// Creates a test set from its own sources, or from a selection of the training sources.
    public init(sources: [DataSource] = [], selection: [String: [String]] = [:]) {
        self.sources = sources
        self.selection = selection
    }

    /// Whether a file with these fields belongs to the test set by ``selection``; false when the
    /// test set has no selection. A field the file does not have never matches.
    ///
    /// - Parameter fields: The file's fields (``FileNamePattern/fields(of:)``).
    public func selects(_ fields: [String: String]) -> Bool {
        guard !selection.isEmpty else { return false }
        return selection.allSatisfy { name, values in
            guard let value = fields[name] else { return false }
            return values.contains { Self.fieldValue(value, matches: $0) }
        }
    }

    /// Whether a file-name field's value is a manifest's value: as integers when both are, else
    /// as text.
    public static func fieldValue(_ value: String, matches wanted: String) -> Bool {
        if let number = Int(value), let wantedNumber = Int(wanted) { return number == wantedNumber }
        return value == wanted
    }

    /// How the selection reads in reports: `subject is 2, 4, 6 or 8`.
    public var selectionDescription: String {
        selection.keys.sorted().map { name in
            let values = selection[name] ?? []
            let list = values.count > 1 ? values.dropLast().joined(separator: ", ") + " or " + (values.last ?? "") : values.first ?? ""
            return "\(name) is \(list)"
        }.joined(separator: " and ")
    }
}
