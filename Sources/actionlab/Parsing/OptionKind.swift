/// What an option's value is: decides how the parser reads it and what a bad value's error says.
enum OptionKind: Sendable, Hashable {
    /// No value: `--data`.
    case flag
    /// Any text, such as a path or a trial id: `--output DIR`.
    case text
    /// Comma-separated names that the command's own list reader checks: `--format onnx,h5`.
    case commaList
    /// A whole number of at least 1: `--jobs N`.
    case positiveInteger
    /// A number of the option's Swift type (`Int`, `UInt64`, `Double`): `--frame-rate FPS`.
    case number
}
