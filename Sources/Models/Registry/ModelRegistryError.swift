/// Errors of the model registry.
public enum ModelRegistryError: Error, Equatable, CustomStringConvertible {
    /// Two families were registered under one `model.kind` name.
    case duplicateName(String)
    /// A configuration holds settings of another family than its kind (a programming error
    /// of code that builds configurations by hand).
    case settingsMismatch(family: String, settings: String)
    /// `resolved.json` names a `model.kind` that no registered family has.
    case unknownKind(String, known: [String])

    public var description: String {
        switch self {
        case let .duplicateName(name):
            "model family '\(name)' is registered twice"
        case let .settingsMismatch(family, settings):
            "model kind '\(family)' cannot be built from settings of type \(settings)"
        case let .unknownKind(kind, known):
            "unknown model kind '\(kind)'; known kinds: \(known.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }
}
