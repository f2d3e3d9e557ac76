extension SyntheticAction {
    /// The actions named in a comma-separated list of labels, e.g. `arm-raise,squat`.
    /// - Throws: ``SyntheticDataError/unknownAction(name:known:)`` for a name that is not a label.
    public static func parseList(_ text: String) throws -> [SyntheticAction] {
        try text.split(separator: ",").map { part in
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let action = SyntheticAction(rawValue: name) else {
                throw SyntheticDataError.unknownAction(name: name, known: allCases.map(\.rawValue))
            }
            return action
        }
    }
}
