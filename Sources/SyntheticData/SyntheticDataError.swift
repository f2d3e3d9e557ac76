/// Why a synthetic dataset could not be generated.
public enum SyntheticDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A generation parameter is out of range.
    case invalidParameter(name: String, value: String, reason: String)
    /// A class name that is not a ``SyntheticAction``.
    case unknownAction(name: String, known: [String])
    /// The output folder already holds files; generating into it would mix datasets.
    case outputNotEmpty(path: String)

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, reason):
            return "\(name) = \(value): \(reason)"
        case let .unknownAction(name, known):
            return "unknown synthetic class '\(name)' (classes: \(known.joined(separator: ", ")))"
        case let .outputNotEmpty(path):
            return "\(path): the output folder is not empty; choose a new or empty folder"
        }
    }
}
